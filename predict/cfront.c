/* cfront: walks the libclang AST of one C file and counts operations.
 *
 * Counting rules (README, "Counting rules"): arithmetic operators count once
 * each where evaluated, except inside subscripts (address computation);
 * comparisons count wherever evaluated except a loop's own condition, which
 * is `iter` together with the increment; element accesses through [], unary
 * * and -> are loads when read and stores when written; named scalars are
 * not memory.  Loops are recognised by their induction variable, and their
 * bodies summed symbolically (predict/sym.c). */
#include "predict/cfront-internal.h"
#include "model/ops.h"
#include "model/util.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <flint/fmpz.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of a member access through named variables ("s->n", "a.b.len"),
 * or of a variable, malloc'd; NULL for any other expression.  It is read
 * off the tree, so that it is the same wherever the access is written (in
 * a macro's argument too). */
static char *member_text(CXCursor c)
{
	c = strip(c);
	if (kind(c) == CXCursor_DeclRefExpr)
		return spelling(c);
	if (kind(c) != CXCursor_MemberRefExpr)
		return NULL;
	kids bk = {0};
	kids_of(c, &bk);
	CXCursor base = bk.n >= 1 ? strip(bk.c[0]) : clang_getNullCursor();
	kids_free(&bk);
	char *b = clang_Cursor_isNull(base) ? NULL : member_text(base);
	if (!b)
		return NULL;
	CXType t = clang_getCanonicalType(clang_getCursorType(base));
	char *m = spelling(c);
	size_t n = strlen(b) + strlen(m) + 3;
	char *r = xmalloc(n);
	snprintf(r, n, "%s%s%s", b, t.kind == CXType_Pointer ? "->" : ".", m);
	free(b);
	free(m);
	return r;
}

/* memory_read()'s visit: the first element read through [] or *. */
static enum CXChildVisitResult memory_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	CXCursor *found = d;
	if (kind(c) == CXCursor_ArraySubscriptExpr ||
	    (kind(c) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref)) {
		*found = c;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* The source text of expression C, at most 60 bytes of it ("an
 * expression" when a macro spans files). */
static char *expr_text(W *w, CXCursor found)
{
	CXSourceRange r = clang_getCursorExtent(found);
	CXFile f0, f1;
	unsigned a, b;
	clang_getExpansionLocation(clang_getRangeStart(r), &f0, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f1, NULL, NULL, &b);
	size_t len = 0;
	const char *text = f0 ? clang_getFileContents(w->tu, f0, &len) : NULL;
	if (!text || !clang_File_isEqual(f0, f1) || b <= a || b > len)
		return xstrdup("an expression");
	size_t n = b - a > 60 ? 60 : b - a;
	char *t = xmalloc(n + 1);
	memcpy(t, text + a, n);
	t[n] = 0;
	for (char *q = t; *q; q++)
		if (*q == '\n' || *q == '\t')
			*q = ' ';
	return t;
}

/* The text of the first element read through [] or * in C (a bound
 * rowptr[i + 1]), at most 60 bytes of it, or NULL. */
static char *memory_read(W *w, CXCursor c)
{
	CXCursor found = clang_getNullCursor();
	clang_visitChildren(c, memory_visit, &found);
	return clang_Cursor_isNull(found) ? NULL : expr_text(w, found);
}

static int is_array_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray;
}

static int is_pointer_type(CXType t)
{
	return clang_getCanonicalType(t).kind == CXType_Pointer;
}

/* The type part of an op key: i32, u64, f64, ptr, ... or NULL. */
static void type_suffix(CXType t, char *buf, size_t n)
{
	t = clang_getCanonicalType(t);
	long long bits = clang_Type_getSizeOf(t) * 8;
	buf[0] = 0;
	switch (t.kind) {
	case CXType_Bool: snprintf(buf, n, "bool"); break;
	case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt:
	case CXType_ULong: case CXType_ULongLong: case CXType_UInt128:
		snprintf(buf, n, "u%lld", bits); break;
	case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int:
	case CXType_Long: case CXType_LongLong: case CXType_Int128: case CXType_Enum:
		snprintf(buf, n, "i%lld", bits); break;
	case CXType_Float: snprintf(buf, n, "f32"); break;
	case CXType_Double: snprintf(buf, n, "f64"); break;
	case CXType_LongDouble: snprintf(buf, n, "f80"); break;
	case CXType_Pointer: snprintf(buf, n, "ptr"); break;
	case CXType_Record: snprintf(buf, n, "struct"); break;
	default: break;
	}
}

/* ---- the walker ------------------------------------------------------- */

/* "FILE:LINE" of AT: the file analysed, or the program's header that
 * holds the function being counted. */
static void where(W *w, CXCursor at, char *buf, size_t n)
{
	const char *file = w->foreign && !in_main_file(at) ? w->cur->header : w->filename;
	snprintf(buf, n, "%s:%d", file, line_of(at));
}

static int fail(W *w, CXCursor at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(W *w, CXCursor at, const char *fmt, ...)
{
	char msg[EPI_ERRLEN - 64], loc[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where(w, at, loc, sizeof loc);
	return epi_error(w->err, "%s: %s", loc, msg);
}

/* Appends S (taking it) to the N strings V, unless one equals it. */
void cf_add_unique(char ***v, int *n, char *s)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0) {
			free(s);
			return;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

void epi_analysis_note(epi_analysis *a, const char *text)
{
	cf_add_unique(&a->notes, &a->nnotes, xstrdup(text));
}

static void note(W *w, CXCursor at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void note(W *w, CXCursor at, const char *fmt, ...)
{
	char msg[400], full[700], loc[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	where(w, at, loc, sizeof loc);
	snprintf(full, sizeof full, "%s: %s", loc, msg);
	epi_analysis_note(w->a, full);
}

/* Counts AMOUNT of KEY, with tag_loops into its loop's sum of that kind
 * when the compiled-code model reads one (epi_op_loop_sum), and with
 * tag_blocks under its block's tag. */
static void count_poly(W *w, epi_counts *out, const char *key, const poly_t amount)
{
	counts_add_poly(w->s, out, key, amount);
	char tagged[400];
	const char *sum;
	int weight;
	if (w->o->tag_loops && w->loop_line && (sum = epi_op_loop_sum(key, &weight))) {
		snprintf(tagged, sizeof tagged, "%%%d/%s", w->loop_line, sum);
		if (weight == 1) {
			counts_add_poly(w->s, out, tagged, amount);
		} else {
			poly_t b;
			poly_init(b, w->s->ctx);
			poly_scalar_mul_si(b, amount, weight, w->s->ctx);
			counts_add_poly(w->s, out, tagged, b);
			poly_clear(b, w->s->ctx);
		}
	}
	if (!w->o->tag_blocks || !w->cur)
		return;
	if (w->tag_line && !w->foreign) /* a header's lines are no nest's of the file */
		snprintf(tagged, sizeof tagged, "@%d/%s", w->tag_line, key);
	else
		snprintf(tagged, sizeof tagged, "@%s()/%s", w->cur->name, key);
	counts_add_poly(w->s, out, tagged, amount);
}

static void count_si(W *w, epi_counts *out, const char *key, long amount)
{
	poly_t p;
	poly_init(p, w->s->ctx);
	poly_set_si(p, amount, w->s->ctx);
	count_poly(w, out, key, p);
	poly_clear(p, w->s->ctx);
}

static void add_op(W *w, epi_counts *out, enum epi_op cls, CXType t);

/* An operation of class CLS on complex numbers of element type ET, as the
 * operations on their parts: a product four products and two sums, a
 * quotient Smith's three divisions, three products and three sums, any
 * other (a sum, an access, a comparison) one per part; with one operand
 * real (MIXED), a sum one sum, a product or a quotient by a real one per
 * part. */
static void complex_op(W *w, epi_counts *out, enum epi_op cls, CXType et, int mixed)
{
	int n = 2;
	if (cls == EPI_OP_MUL && !mixed) {
		n = 4;
		add_op(w, out, EPI_OP_ADD, et);
		add_op(w, out, EPI_OP_ADD, et);
	} else if (cls == EPI_OP_DIV && !mixed) {
		n = 3;
		for (int i = 0; i < 3; i++) {
			add_op(w, out, EPI_OP_MUL, et);
			add_op(w, out, EPI_OP_ADD, et);
		}
	} else if (cls == EPI_OP_ADD && mixed) {
		n = 1;
	}
	for (int i = 0; i < n; i++)
		add_op(w, out, cls, et);
}

static int is_complex(CXType t) { return clang_getCanonicalType(t).kind == CXType_Complex; }

/* Operation CLS of result type T on the operands L and R: by parts for
 * complex numbers (one of them maybe real). */
static void arith_op(W *w, epi_counts *out, enum epi_op cls, CXType t, CXCursor l, CXCursor r)
{
	if (!is_complex(t) || (w->subscript && cls != EPI_OP_CMP)) {
		add_op(w, out, cls, t);
		return;
	}
	int real_l = !is_complex(clang_getCursorType(strip(l))), real_r = !is_complex(clang_getCursorType(strip(r)));
	int mixed = cls == EPI_OP_DIV ? real_r : real_l || real_r;
	complex_op(w, out, cls, clang_getElementType(clang_getCanonicalType(t)), mixed);
}

static void add_op(W *w, epi_counts *out, enum epi_op cls, CXType t)
{
	if (w->subscript && (cls == EPI_OP_ADD || cls == EPI_OP_MUL || cls == EPI_OP_DIV || cls == EPI_OP_BIT))
		return; /* address computation */
	if (is_complex(t)) {
		complex_op(w, out, cls, clang_getElementType(clang_getCanonicalType(t)), 0);
		return;
	}
	char key[64], ts[24];
	type_suffix(t, ts, sizeof ts);
	snprintf(key, sizeof key, "%s%s%s", epi_op_name(cls), ts[0] ? "." : "", ts);
	count_si(w, out, key, 1);
}

static int loop_var_of(W *w, CXCursor decl)
{
	for (int i = w->nlv - 1; i >= 0; i--)
		if (clang_equalCursors(w->lvdecl[i], decl))
			return w->lvvar[i];
	return -1;
}

/* The index of the pin of DECL, a variable counted value by value, in
 * w->pin_decl, the innermost first; -1 when it is none. */
static int pin_of(W *w, CXCursor decl)
{
	for (int i = w->npin - 1; i >= 0; i--)
		if (clang_equalCursors(w->pin_decl[i], decl))
			return i;
	return -1;
}

/* OUT = the parameter NAME; returns 0, or -1 when the symbol table is full. */
static int param_poly(W *w, const char *name, poly_t out)
{
	int v = sym_var(w->s, name, SYM_PARAM);
	if (v < 0)
		return -1;
	poly_set(out, &w->s->gen[v], w->s->ctx);
	return 0;
}

static int writes(CXCursor stmt, CXCursor decl, CXCursor *at);
static int writes_member(CXTranslationUnit tu, CXCursor stmt, const char *text, CXCursor *at);
static int fn_writes_of(fn *f, CXCursor d, CXCursor *at, CXCursor *block, int max);

/* The initializer of D, a variable of the function being counted that
 * nothing in it writes again (nor takes the address of), else null. */
static CXCursor var_init(W *w, CXCursor d)
{
	if (kind(d) != CXCursor_VarDecl || !clang_equalCursors(clang_getCursorSemanticParent(d), w->cur->cur))
		return clang_getNullCursor();
	kids vk = {0};
	kids_of(d, &vk);
	CXCursor init = vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1])) ? vk.c[vk.n - 1] : clang_getNullCursor();
	kids_free(&vk);
	if (!clang_Cursor_isNull(init) && fn_writes_of(w->cur, d, NULL, NULL, 0) > 0)
		return clang_getNullCursor();
	return init;
}

/* Whether cursor C's text lies inside cursor OUTER's (by expansion
 * offsets in the same file). */
static int inside(CXCursor c, CXCursor outer)
{
	CXSourceRange r = clang_getCursorExtent(outer);
	CXFile f, f0, f1;
	unsigned o, a, b;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &o);
	clang_getExpansionLocation(clang_getRangeStart(r), &f0, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f1, NULL, NULL, &b);
	return f && clang_File_isEqual(f, f0) && clang_File_isEqual(f, f1) && o >= a && o < b;
}

/* fixed_init()'s walk of an initializer. */
typedef struct fixed {
	W *w;
	CXCursor d; /* the variable initialised */
	int ok;
} fixed;

static enum CXChildVisitResult fixed_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	fixed *f = data;
	if (kind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor r = clang_getCursorReferenced(c);
	enum CXCursorKind k = kind(r);
	if (k == CXCursor_EnumConstantDecl || k == CXCursor_FunctionDecl)
		return CXChildVisit_Continue;
	W *w = f->w;
	for (int i = 0; i < w->nlv; i++)
		if (clang_equalCursors(w->lvdecl[i], r)) {
			/* a loop's variable, read where its loop declares D:
			 * the value of the iteration */
			f->ok = inside(f->d, w->lvstmt[i]);
			return f->ok ? CXChildVisit_Continue : CXChildVisit_Break;
		}
	/* the function's own variables and parameters that nothing in it
	 * writes; a file's variables may change in any call */
	f->ok = (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) &&
		clang_equalCursors(clang_getCursorSemanticParent(r), w->cur->cur) && !fn_writes_of(w->cur, r, NULL, NULL, 0);
	return f->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Whether INIT, the initializer of D (a variable nothing writes again),
 * has the value it had where D was declared wherever D is read: it reads
 * no variable that changes (but the variables of the loops around D's
 * declaration, which D takes again at each iteration). */
static int fixed_init(W *w, CXCursor d, CXCursor init)
{
	fixed f = {.w = w, .d = d, .ok = 1};
	if (kind(init) == CXCursor_DeclRefExpr)
		fixed_visit(init, init, &f);
	else
		clang_visitChildren(init, fixed_visit, &f);
	return f.ok;
}

static int same_decl(CXCursor expr, CXCursor decl);

/* The lvalue that C writes (an assignment's left side; what ++, -- or &
 * is applied to), or null. */
static CXCursor written_by(CXCursor c)
{
	enum CXCursorKind k = kind(c);
	kids kk = {0};
	CXCursor lv = clang_getNullCursor();
	if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign) {
			kids_of(c, &kk);
			if (kk.n >= 1)
				lv = kk.c[0];
		}
	} else if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreInc ||
		    op == CXUnaryOperator_PreDec || op == CXUnaryOperator_AddrOf) {
			kids_of(c, &kk);
			if (kk.n == 1)
				lv = kk.c[0];
		}
	}
	kids_free(&kk);
	return lv;
}

/* The value the variable D of the function being counted has at USE when
 * a plain assignment sets it there (nm1 = n - 1; kp1 = k + 1 in the loop
 * around; Linpack's k = n - (kb + 1), its k a loop variable elsewhere):
 * the right side of the last assignment before USE that is a statement of
 * a block holding USE, when no other write of D follows it in that block
 * and the right side reads nothing that changes (as an initializer,
 * fixed_init()); else null. */
static CXCursor single_assign(W *w, CXCursor d, CXCursor use)
{
	CXCursor none = clang_getNullCursor();
	if (kind(d) != CXCursor_VarDecl || !clang_equalCursors(clang_getCursorSemanticParent(d), w->cur->cur))
		return none;
	enum { MAXW = 32 };
	CXCursor at[MAXW], blocks[MAXW];
	int n = fn_writes_of(w->cur, d, at, blocks, MAXW);
	if (n == 0 || n > MAXW)
		return none;
	unsigned at_use = offset_of(clang_getCursorLocation(use));
	CXCursor best = none;
	unsigned best_end = 0;
	for (int i = 0; i < n; i++) {
		CXCursor a = at[i];
		unsigned end = offset_of(clang_getRangeEnd(clang_getCursorExtent(a)));
		if (kind(a) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(a) != CXBinaryOperator_Assign ||
		    end > at_use || (!clang_Cursor_isNull(best) && end < best_end))
			continue;
		if (clang_Cursor_isNull(blocks[i]) || !inside(use, blocks[i]))
			continue;
		int later = 0; /* another write after it in its block */
		for (int j = 0; j < n && !later; j++)
			later = j != i && inside(at[j], blocks[i]) &&
				offset_of(clang_getCursorLocation(at[j])) > offset_of(clang_getCursorLocation(a));
		if (!later) {
			best = a;
			best_end = end;
		}
	}
	if (clang_Cursor_isNull(best))
		return none;
	kids ak = {0};
	kids_of(best, &ak);
	CXCursor rhs = ak.n == 2 ? ak.c[1] : none;
	kids_free(&ak);
	return !clang_Cursor_isNull(rhs) && fixed_init(w, best, rhs) ? rhs : none;
}

/* Whether the variable D changes inside a loop around the code being
 * counted that is counted without an induction variable (see W's vary). */
static int varies(W *w, CXCursor d)
{
	for (int i = 0; i < w->nvary; i++)
		if (writes(w->vary[i], d, NULL))
			return 1;
	return 0;
}

static int expr_poly(W *w, CXCursor c, poly_t out);

/* expr_poly() of a loop's bound or first value. */
static int bound_poly(W *w, CXCursor c, poly_t out)
{
	w->in_bound++;
	int r = expr_poly(w, c, out);
	w->in_bound--;
	return r;
}

/* Converts an integer expression to a polynomial in parameters and loop
 * variables; returns 0, or -1 when it is not one. */
static int expr_poly(W *w, CXCursor c, poly_t out)
{
	sym_ctx *s = w->s;
	c = strip(c);
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_DeclRefExpr) {
		CXCursor d = clang_getCursorReferenced(c);
		if (kind(d) == CXCursor_EnumConstantDecl) {
			poly_set_si(out, clang_getEnumConstantDeclValue(d), s->ctx);
			return 0;
		}
		if (kind(d) != CXCursor_VarDecl && kind(d) != CXCursor_ParmDecl)
			return -1;
		int pin = pin_of(w, d);
		if (pin >= 0) {
			poly_set_si(out, w->pin_val[pin], s->ctx);
			return 0;
		}
		int v = loop_var_of(w, d);
		if (v < 0 && varies(w, d))
			return -1;
		if (v < 0) {
			CXType t = clang_getCanonicalType(clang_getCursorType(d));
			if (clang_isConstQualifiedType(t)) {
				CXEvalResult r = clang_Cursor_Evaluate(c);
				if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
					poly_set_si(out, (long)clang_EvalResult_getAsLongLong(r), s->ctx);
					clang_EvalResult_dispose(r);
					return 0;
				}
				if (r)
					clang_EvalResult_dispose(r);
			}
			/* a variable the function sets once, where it declares
			 * it, to a value that stays (int m = 100, int e = 2 * n
			 * where nothing changes n): its initializer, where a
			 * parameter of that name would stand for any value; a
			 * pointer's (double *end = a + n), so that a walk to it
			 * counts in elements (n), not in two addresses */
			int integral = (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
			CXCursor init = (t.kind == CXType_Pointer || integral) && w->cur && w->inits < 8
						? var_init(w, d)
						: clang_getNullCursor();
			if (!clang_Cursor_isNull(init) && (t.kind == CXType_Pointer || fixed_init(w, d, init))) {
				w->inits++;
				int r = expr_poly(w, init, out);
				w->inits--;
				if (r == 0)
					return 0;
			}
			/* one set once by an assignment before this use, to a
			 * value that stays (nm1 = n - 1, kp1 = k + 1) */
			init = integral && w->cur && w->inits < 8 ? single_assign(w, d, c) : clang_getNullCursor();
			if (!clang_Cursor_isNull(init)) {
				w->inits++;
				int r = expr_poly(w, init, out);
				w->inits--;
				if (r == 0)
					return 0;
			}
			char *name = spelling(d);
			int r = param_poly(w, name, out);
			/* in a loop's bound, a variable the function sets, not one
			 * it is given */
			if (r == 0 && w->in_bound && kind(d) == CXCursor_VarDecl && w->cur &&
			    clang_equalCursors(clang_getCursorSemanticParent(d), w->cur->cur))
				note(w, c, "'%s', a variable of %s() (declared on line %d), is taken as a parameter: "
					   "counted as one value; where it changes during the run, bind its mean (a whole number)", name,
				     w->cur->name, line_of(d));
			free(name);
			return r;
		}
		poly_set(out, &s->gen[v], s->ctx);
		return 0;
	}
	if (k == CXCursor_MemberRefExpr) {
		/* s->n, a.len: a parameter named by its text, if of integer type and
		 * reached through named variables only */
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		if (!((t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum))
			return -1;
		CXCursor b = c;
		for (;;) {
			kids bk = {0};
			kids_of(b, &bk);
			CXCursor base = bk.n >= 1 ? strip(bk.c[0]) : clang_getNullCursor();
			kids_free(&bk);
			if (clang_Cursor_isNull(base))
				return -1;
			if (kind(base) == CXCursor_DeclRefExpr) {
				CXCursor d = clang_getCursorReferenced(base);
				if (loop_var_of(w, d) < 0 && varies(w, d))
					return -1; /* p->n in a walk that moves p */
				break;
			}
			if (kind(base) != CXCursor_MemberRefExpr)
				return -1;
			b = base;
		}
		char *name = member_text(c);
		if (!name)
			return -1;
		for (int i = 0; i < w->nvary; i++)
			if (writes_member(w->tu, w->vary[i], name, NULL)) {
				free(name);
				return -1; /* changed in a loop around it */
			}
		int r = param_poly(w, name, out);
		if (r == 0)
			note(w, c, "'%s' is taken as a parameter: assumed unchanged where it bounds a loop", name);
		free(name);
		return r;
	}
	if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		kids kk = {0};
		kids_of(c, &kk);
		int ret = -1;
		if (kk.n == 2) {
			poly_t b;
			poly_init(b, s->ctx);
			if (expr_poly(w, kk.c[0], out) == 0 && expr_poly(w, kk.c[1], b) == 0) {
				ret = 0;
				CXType t = clang_getCanonicalType(clang_getCursorType(c));
				int integral = t.kind >= CXType_Bool && t.kind <= CXType_Int128;
				switch (op) {
				case CXBinaryOperator_Add: poly_add(out, out, b, s->ctx); break;
				case CXBinaryOperator_Sub: poly_sub(out, out, b, s->ctx); break;
				case CXBinaryOperator_Mul: poly_mul(out, out, b, s->ctx); break;
				case CXBinaryOperator_Div:
				case CXBinaryOperator_Rem:
					if (!integral || !poly_is_fmpq(b, s->ctx)) {
						ret = -1;
						break;
					}
					{
						fmpq_t d;
						fmpq_init(d);
						poly_get_fmpq(d, b, s->ctx);
						if (fmpz_sgn(fmpq_numref(d)) <= 0 || !fmpz_is_one(fmpq_denref(d))) {
							ret = -1;
						} else if (!poly_is_fmpq(out, s->ctx)) {
							/* C rounds toward zero: exact for non-negative operands */
							note(w, c, "'/' and '%%' in a bound are taken as floor division "
								   "(exact for non-negative operands)");
						}
						if (ret == 0) {
							poly_t q;
							poly_init(q, s->ctx);
							if (sym_floor(s, q, out, fmpq_numref(d)) < 0) {
								ret = -1;
							} else if (op == CXBinaryOperator_Div) {
								poly_swap(out, q, s->ctx);
							} else {
								poly_scalar_mul_fmpz(q, q, fmpq_numref(d), s->ctx);
								poly_sub(out, out, q, s->ctx);
							}
							poly_clear(q, s->ctx);
						}
						fmpq_clear(d);
					}
					break;
				case CXBinaryOperator_Shl:
				case CXBinaryOperator_Shr: {
					/* by a constant: a product, or a floor quotient (an
					 * arithmetic shift rounds down), by a power of 2 */
					fmpq_t d;
					fmpq_init(d);
					if (integral && poly_is_fmpq(b, s->ctx))
						poly_get_fmpq(d, b, s->ctx);
					long sh = fmpz_is_one(fmpq_denref(d)) && fmpz_fits_si(fmpq_numref(d))
							  ? fmpz_get_si(fmpq_numref(d))
							  : -1;
					if (!integral || !poly_is_fmpq(b, s->ctx) || sh < 0 || sh > 62) {
						ret = -1;
					} else if (op == CXBinaryOperator_Shl) {
						poly_scalar_mul_si(out, out, 1L << sh, s->ctx);
					} else {
						fmpz_t p2;
						fmpz_init_set_si(p2, 1L << sh);
						poly_t q;
						poly_init(q, s->ctx);
						if (sym_floor(s, q, out, p2) < 0)
							ret = -1;
						else
							poly_swap(out, q, s->ctx);
						poly_clear(q, s->ctx);
						fmpz_clear(p2);
					}
					fmpq_clear(d);
					break;
				}
				default:
					ret = -1;
				}
			}
			poly_clear(b, s->ctx);
		}
		kids_free(&kk);
		if (ret == 0)
			return 0;
	}
	if (k == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		kids kk = {0};
		kids_of(c, &kk);
		int ret = -1;
		if (kk.n == 1 && (op == CXUnaryOperator_Minus || op == CXUnaryOperator_Plus) &&
		    expr_poly(w, kk.c[0], out) == 0) {
			if (op == CXUnaryOperator_Minus)
				poly_neg(out, out, s->ctx);
			ret = 0;
		}
		kids_free(&kk);
		if (ret == 0)
			return 0;
	}
	/* constants: literals, sizeof, constant folding */
	if (k == CXCursor_IntegerLiteral || k == CXCursor_CharacterLiteral || k == CXCursor_UnaryExpr ||
	    k == CXCursor_BinaryOperator || k == CXCursor_UnaryOperator) {
		CXEvalResult r = clang_Cursor_Evaluate(c);
		int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
		if (ok)
			poly_set_si(out, (long)clang_EvalResult_getAsLongLong(r), s->ctx);
		if (r)
			clang_EvalResult_dispose(r);
		return ok ? 0 : -1;
	}
	return -1;
}

/* The declaration a (stripped) expression names, or a null cursor. */
static CXCursor named_decl(CXCursor c)
{
	c = strip(c);
	if (kind(c) != CXCursor_DeclRefExpr)
		return clang_getNullCursor();
	return clang_getCursorReferenced(c);
}

static int same_decl(CXCursor expr, CXCursor decl)
{
	CXCursor d = named_decl(expr);
	return !clang_Cursor_isNull(d) && clang_equalCursors(d, decl);
}

/* ---- a function's writes and loops ---------------------------------------
 *
 * What a whole-function scan for the writes of one variable finds (an
 * assignment, ++, -- or & of it: written_by()), for every variable at once,
 * and the function's loops: one visit of the function each, then a lookup,
 * where a scan per variable read or per condition made the walk quadratic
 * in the function's size (libclang queues a block's statements before
 * visiting them, so even a visit stopped early costs the whole body). */

typedef struct fn_write {
	unsigned h;       /* the variable's clang_hashCursor() */
	int order;        /* the visit's */
	CXCursor decl;    /* the variable */
	CXCursor at;      /* the write */
	CXCursor block;   /* the compound statement of which it is a statement, or null */
} fn_write;

/* A loop's text: its file (NULL when it spans files) and expansion offsets. */
typedef struct fn_span {
	CXFile file;
	unsigned a, b;
} fn_span;

struct fn_index {
	int nw, capw, windexed;
	fn_write *w;
	int nloops, caploops, lindexed;
	fn_span *loops;
	int nsized, capsized, sindexed; /* the variables its loops' headers read, by hash */
	fn_write *sized;
};

static struct fn_index *fn_index_of(fn *f)
{
	if (!f->index)
		f->index = xcalloc(1, sizeof *f->index);
	return f->index;
}

static enum CXChildVisitResult index_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct fn_index *x = data;
	CXCursor lv = written_by(c);
	CXCursor d = clang_Cursor_isNull(lv) ? lv : named_decl(lv);
	if (!clang_Cursor_isNull(d)) {
		ALLOC_GROW(x->w, x->nw + 1, x->capw);
		x->w[x->nw] = (fn_write){.h = clang_hashCursor(d), .order = x->nw, .decl = d, .at = c,
					 .block = kind(parent) == CXCursor_CompoundStmt ? parent : clang_getNullCursor()};
		x->nw++;
	}
	return CXChildVisit_Recurse;
}

static int write_cmp(const void *a, const void *b)
{
	const fn_write *x = a, *y = b;
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* F's index *V (*N entries) built once (*DONE): VISIT over F's body
 * fills it, then it is sorted by write_cmp for by_decl. */
static void index_once(fn *f, int *done, CXCursorVisitor visit, fn_write **v, int *n)
{
	if (*done)
		return;
	*done = 1;
	clang_visitChildren(f->cur, visit, fn_index_of(f));
	if (*n > 1)
		qsort(*v, (size_t)*n, sizeof **v, write_cmp);
}

/* The entries of V (N, sorted by write_cmp) whose variable is D, in their
 * order: returns their number, the first MAX's writes into AT (their
 * blocks into BLOCK, when not NULL). */
static int by_decl(const fn_write *v, int n, CXCursor d, CXCursor *at, CXCursor *block, int max)
{
	unsigned h = clang_hashCursor(d);
	int lo = 0, hi = n, found = 0;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int i = lo; i < n && v[i].h == h; i++) {
		if (!clang_equalCursors(v[i].decl, d))
			continue;
		if (found < max) {
			at[found] = v[i].at;
			if (block)
				block[found] = v[i].block;
		}
		found++;
	}
	return found;
}

/* The writes of the variable D in F, in the order a visit of F meets them:
 * returns their number, the first MAX into AT (their blocks into BLOCK, when
 * not NULL). */
static int fn_writes_of(fn *f, CXCursor d, CXCursor *at, CXCursor *block, int max)
{
	struct fn_index *x = fn_index_of(f);
	index_once(f, &x->windexed, index_visit, &x->w, &x->nw);
	return by_decl(x->w, x->nw, d, at, block, max);
}

static enum CXChildVisitResult loops_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fn_index *x = data;
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		CXSourceRange r = clang_getCursorExtent(c);
		CXFile f0, f1;
		fn_span sp;
		clang_getExpansionLocation(clang_getRangeStart(r), &f0, NULL, NULL, &sp.a);
		clang_getExpansionLocation(clang_getRangeEnd(r), &f1, NULL, NULL, &sp.b);
		sp.file = f0 && clang_File_isEqual(f0, f1) ? f0 : NULL;
		ALLOC_GROW(x->loops, x->nloops + 1, x->caploops);
		x->loops[x->nloops++] = sp;
	}
	return CXChildVisit_Recurse;
}

/* F's loops (*N of them), their texts. */
static const fn_span *fn_loops(fn *f, int *n)
{
	struct fn_index *x = fn_index_of(f);
	if (!x->lindexed) {
		x->lindexed = 1;
		clang_visitChildren(f->cur, loops_visit, x);
	}
	*n = x->nloops;
	return x->loops;
}

static enum CXChildVisitResult sized_ref_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	struct fn_index *x = data;
	if (kind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor d = clang_getCursorReferenced(c);
	if (kind(d) == CXCursor_VarDecl) {
		ALLOC_GROW(x->sized, x->nsized + 1, x->capsized);
		x->sized[x->nsized] = (fn_write){.h = clang_hashCursor(d), .order = x->nsized, .decl = d};
		x->nsized++;
	}
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult sized_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	enum CXCursorKind k = kind(c);
	if (k != CXCursor_ForStmt && k != CXCursor_WhileStmt && k != CXCursor_DoStmt)
		return CXChildVisit_Recurse;
	/* the header: every part but the body (a do's body comes first) */
	kids kk = {0};
	kids_of(c, &kk);
	for (int i = k == CXCursor_DoStmt ? 1 : 0; i < (k == CXCursor_DoStmt ? kk.n : kk.n - 1); i++) {
		sized_ref_visit(kk.c[i], c, data);
		clang_visitChildren(kk.c[i], sized_ref_visit, data);
	}
	kids_free(&kk);
	return CXChildVisit_Recurse;
}

/* Whether F's loops' headers read the local D: a size of the function,
 * whatever sets it (int n = atoi(argv[1]); for (i = 0; i < n; i++)). */
static int fn_sized(fn *f, CXCursor d)
{
	struct fn_index *x = fn_index_of(f);
	index_once(f, &x->sindexed, sized_visit, &x->sized, &x->nsized);
	return by_decl(x->sized, x->nsized, d, NULL, NULL, 0) > 0;
}

/* Whether C's text lies inside one of the N loop texts L (as inside()). */
static int in_loops(CXCursor c, const fn_span *l, int n)
{
	CXFile f;
	unsigned o;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &o);
	for (int i = 0; f && i < n; i++)
		if (l[i].file && clang_File_isEqual(f, l[i].file) && o >= l[i].a && o < l[i].b)
			return 1;
	return 0;
}

void cf_fn_index_free(fn *f)
{
	if (f->index) {
		free(f->index->w);
		free(f->index->loops);
		free(f->index->sized);
	}
	free(f->index);
	f->index = NULL;
}

/* ---- writes, escapes and references inside a loop body ------------------ */

typedef struct scan {
	const CXCursor *decl; /* variables looked for */
	int ndecl;
	const char *text;     /* or a member access, by its text ("s->n") */
	CXTranslationUnit tu;
	int found;            /* 1 + the first of DECL written (1: TEXT), 0 when none is */
	CXCursor at;          /* where it is written first */
} scan;

/* 1 + the index of what SC looks for that the lvalue E is, or 0. */
static int target_of(scan *sc, CXCursor e)
{
	if (!sc->text) {
		for (int j = 0; j < sc->ndecl; j++)
			if (same_decl(e, sc->decl[j]))
				return j + 1;
		return 0;
	}
	e = strip(e);
	if (kind(e) != CXCursor_MemberRefExpr)
		return 0;
	char *t = member_text(e);
	int r = t && strcmp(t, sc->text) == 0;
	free(t);
	return r;
}

static enum CXChildVisitResult write_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	scan *sc = d;
	CXCursor lv = written_by(c);
	int hit = clang_Cursor_isNull(lv) ? 0 : target_of(sc, lv);
	if (hit && (!sc->found || hit < sc->found)) {
		sc->found = hit;
		sc->at = c;
	}
	return sc->found == 1 ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static int scan_writes(CXCursor stmt, scan *sc, CXCursor *at)
{
	write_visit(stmt, clang_getNullCursor(), sc);
	if (sc->found != 1)
		clang_visitChildren(stmt, write_visit, sc);
	if (sc->found && at)
		*at = sc->at;
	return sc->found;
}

/* Whether STMT may change the variable DECL (assigned, incremented, address taken). */
static int writes(CXCursor stmt, CXCursor decl, CXCursor *at)
{
	scan sc = {.decl = &decl, .ndecl = 1};
	return scan_writes(stmt, &sc, at);
}

/* Whether STMT assigns the member access whose text is TEXT. */
static int writes_member(CXTranslationUnit tu, CXCursor stmt, const char *text, CXCursor *at)
{
	scan sc = {.text = text, .tu = tu};
	return scan_writes(stmt, &sc, at);
}

typedef struct esc {
	int loops, switches; /* statements nested inside the body that own break/continue */
	int found;
	const char *what;
	CXCursor at;
	int ends, jumps; /* a break or return, a goto, anywhere in it */
} esc;

/* The statement of kind K that leaves the body early, as "return", or NULL. */
static const char *escape_of(enum CXCursorKind k, const esc *e)
{
	if (k == CXCursor_ReturnStmt)
		return "return";
	if (k == CXCursor_GotoStmt || k == CXCursor_IndirectGotoStmt)
		return "goto";
	if (k == CXCursor_BreakStmt && e->loops == 0 && e->switches == 0)
		return "break";
	if (k == CXCursor_ContinueStmt && e->loops == 0)
		return "continue";
	return NULL;
}

/* A loop body's statement checked in one walk for both: the first of the
 * variables SCAN looks for that it may change (1 + its index in w.found),
 * and how it may leave the loop (break, continue, return, goto). */
typedef struct body_scan {
	scan w;
	esc e;
} body_scan;

/* Whether the walk has its answer: the first variable looked for changes,
 * or, with none looked for, a way out was found. */
static int body_done(const body_scan *b)
{
	return b->w.found == 1 || (b->e.found && b->w.ndecl == 0);
}

static enum CXChildVisitResult body_visit(CXCursor c, CXCursor p, CXClientData d)
{
	body_scan *b = d;
	if (b->w.ndecl)
		write_visit(c, p, &b->w);
	enum CXCursorKind k = kind(c);
	const char *what = escape_of(k, &b->e);
	if (what) {
		b->e.ends |= what[0] == 'b' || what[0] == 'r';
		b->e.jumps |= what[0] == 'g';
	}
	if (what && !b->e.found) { /* the first way out; the walk goes on for the writes */
		b->e.found = 1;
		b->e.what = what;
		b->e.at = c;
	}
	if (body_done(b))
		return CXChildVisit_Break;
	if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt) {
		int sw = k == CXCursor_SwitchStmt;
		b->e.loops += !sw;
		b->e.switches += sw;
		clang_visitChildren(c, body_visit, b);
		b->e.loops -= !sw;
		b->e.switches -= sw;
		return body_done(b) ? CXChildVisit_Break : CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static void scan_body_stmt(CXCursor stmt, body_scan *b)
{
	if (body_visit(stmt, clang_getNullCursor(), b) == CXChildVisit_Recurse)
		clang_visitChildren(stmt, body_visit, b);
}

/* Whether STMT, a statement of a loop body, can leave the loop early or
 * skip the rest of an iteration (break, continue, return, goto). */
static int escapes(CXCursor stmt, CXCursor *at, const char **what)
{
	body_scan b = {0};
	scan_body_stmt(stmt, &b);
	if (b.e.found) {
		*at = b.e.at;
		*what = b.e.what;
	}
	return b.e.found;
}

typedef struct refs {
	int n;
	CXCursor d[32];
	int nm;
	CXCursor m[8];    /* member accesses (outermost) */
} refs;

static enum CXChildVisitResult ref_visit(CXCursor c, CXCursor p, CXClientData d)
{
	refs *r = d;
	if (kind(c) == CXCursor_MemberRefExpr && r->nm < 8)
		r->m[r->nm++] = c; /* and the variables inside, below */
	if (kind(c) == CXCursor_DeclRefExpr && r->n < 32) {
		CXCursor x = clang_getCursorReferenced(c);
		if (kind(x) == CXCursor_VarDecl || kind(x) == CXCursor_ParmDecl)
			r->d[r->n++] = x;
	}
	return CXChildVisit_Recurse;
}

static void refs_of(CXCursor c, refs *r)
{
	ref_visit(c, clang_getNullCursor(), r);
	clang_visitChildren(c, ref_visit, r);
}

/* ---- statements and expressions ---------------------------------------- */

enum mode { RD, WR, RW, ADDR };

static int rval(W *w, CXCursor c, epi_counts *out);
static int stmt(W *w, CXCursor c, epi_counts *out);

static int is_memory_lvalue(CXCursor c)
{
	c = strip(c);
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_ArraySubscriptExpr)
		return 1;
	if (k == CXCursor_UnaryOperator)
		return clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref;
	if (k == CXCursor_MemberRefExpr) {
		kids kk = {0};
		kids_of(c, &kk);
		int r = kk.n >= 1 && (is_pointer_type(clang_getCursorType(kk.c[0])) || is_memory_lvalue(kk.c[0]));
		kids_free(&kk);
		return r;
	}
	return 0;
}

static void access(W *w, CXCursor c, enum mode m, epi_counts *out)
{
	CXType t = clang_getCursorType(c);
	if (m == ADDR || is_array_type(t) || clang_getCanonicalType(t).kind == CXType_FunctionProto ||
	    clang_getCanonicalType(t).kind == CXType_FunctionNoProto)
		return;
	int saved = w->subscript;
	w->subscript = 0;
	if (m == RD || m == RW)
		add_op(w, out, EPI_OP_LOAD, t);
	if (m == WR || m == RW)
		add_op(w, out, EPI_OP_STORE, t);
	w->subscript = saved;
}

/* Counts an lvalue used in mode M: the access itself and what computes its address. */
static int lval(W *w, CXCursor c, enum mode m, epi_counts *out)
{
	c = strip(c);
	enum CXCursorKind k = kind(c);
	kids kk = {0};
	int ret = 0;
	if (k == CXCursor_DeclRefExpr) {
		return 0;
	} else if (k == CXCursor_ArraySubscriptExpr) {
		kids_of(c, &kk);
		if (kk.n == 2) {
			int bi = is_pointer_type(clang_getCursorType(kk.c[0])) || is_array_type(clang_getCursorType(strip(kk.c[0]))) ? 0 : 1;
			CXCursor base = kk.c[bi], idx = kk.c[1 - bi];
			access(w, c, m, out);
			if (is_array_type(clang_getCursorType(strip(base))))
				ret = lval(w, base, ADDR, out);
			else
				ret = rval(w, base, out);
			w->subscript++;
			if (ret == 0)
				ret = rval(w, idx, out);
			w->subscript--;
		}
	} else if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
		kids_of(c, &kk);
		access(w, c, m, out);
		if (kk.n == 1)
			ret = rval(w, kk.c[0], out);
	} else if (k == CXCursor_MemberRefExpr) {
		kids_of(c, &kk);
		if (kk.n >= 1) {
			CXCursor base = kk.c[0];
			if (is_pointer_type(clang_getCursorType(base))) {
				access(w, c, m, out);
				ret = rval(w, base, out);
			} else {
				if (is_memory_lvalue(base))
					access(w, c, m, out);
				ret = lval(w, base, ADDR, out);
			}
		}
	} else {
		ret = rval(w, c, out);
	}
	kids_free(&kk);
	return ret;
}

static const char *const print_fns[] = {"printf", "fprintf", "puts", "fputs", "putchar", "putc", "fputc",
					"vprintf", "vfprintf", "dprintf", "putchar_unlocked", "putc_unlocked", NULL};

/* The name of a C library function behind fortified or builtin spellings. */
static const char *base_name(const char *name, char *buf, size_t n)
{
	const char *p = name;
	if (strncmp(p, "__builtin___", 12) == 0)
		p += 12;
	else if (strncmp(p, "__builtin_", 10) == 0)
		p += 10;
	snprintf(buf, n, "%s", p);
	size_t len = strlen(buf);
	if (len > 4 && strcmp(buf + len - 4, "_chk") == 0)
		buf[len - 4] = 0;
	if (strncmp(buf, "__", 2) == 0 && strstr(buf, "printf"))
		return "printf";
	return buf;
}

/* Functions by name, and of two of the same name the first in the list. */
static int by_name(const void *x, const void *y)
{
	const fn *a = *(fn *const *)x, *b = *(fn *const *)y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a > b) - (a < b);
}

/* The first function of W's list named NAME, or NULL: by binary search in
 * an index made at the first call (a file of thousands of functions calls
 * as many). */
static fn *find_fn(W *w, const char *name)
{
	if (!w->byname) {
		w->byname = xmalloc(((size_t)w->nfns + 1) * sizeof *w->byname);
		for (int i = 0; i < w->nfns; i++)
			w->byname[i] = &w->fns[i];
		qsort(w->byname, (size_t)w->nfns, sizeof *w->byname, by_name);
	}
	int lo = 0, hi = w->nfns;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(w->byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nfns && strcmp(w->byname[lo]->name, name) == 0 ? w->byname[lo] : NULL;
}

static void grow_symbols(W *w);

/* Callers waiting for a callee's count beyond which the callee's own
 * callees are counted first, from a stack of our own rather than by
 * recursion on the thread's: a chain of any length is counted. */
#define DEEP_CALLS 32

typedef struct deep_frame {
	fn *f;
	fn **callees; /* the same-file functions it calls that are not counted yet */
	int n, cap, next;
} deep_frame;

static enum CXChildVisitResult callee_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	void **ctx = d;
	W *w = ctx[0];
	deep_frame *fr = ctx[1];
	if (kind(c) == CXCursor_CallExpr) {
		char *raw = spelling(c);
		fn *g = find_fn(w, raw);
		free(raw);
		if (g && g->state == 0 && !g->queued && !g->blank) {
			ALLOC_GROW(fr->callees, fr->n + 1, fr->cap);
			fr->callees[fr->n++] = g;
		}
	}
	return CXChildVisit_Recurse;
}

/* Counts ROOT after the functions it calls, directly or not, each after
 * its own callees (a depth-first walk of the call graph on a stack of our
 * own), so that counting any of them finds its callees counted.  Returns
 * 0 or -1. */
static int analyze_deep(W *w, fn *root)
{
	int n = 0, ret = 0;
	size_t cap = 0;
	deep_frame *st = NULL;
	ALLOC_GROW_FROM(st, 1, cap, 16);
	st[n++] = (deep_frame){.f = root};
	root->queued = 1;
	void *ctx[2] = {w, &st[0]};
	clang_visitChildren(root->cur, callee_visit, ctx);
	while (n > 0 && ret == 0) {
		deep_frame *top = &st[n - 1];
		if (top->next < top->n) {
			fn *g = top->callees[top->next++];
			if (g->state != 0 || g->queued)
				continue;
			ALLOC_GROW(st, n + 1, cap);
			st[n] = (deep_frame){.f = g};
			g->queued = 1;
			ctx[1] = &st[n];
			clang_visitChildren(g->cur, callee_visit, ctx);
			n++;
			continue;
		}
		fn *f = top->f;
		free(top->callees);
		n--;
		f->queued = 0;
		if (f->state == 0) {
			f->called |= f != root;
			ret = cf_analyze_fn(w, f);
		}
	}
	while (n > 0) {
		st[n - 1].f->queued = 0;
		free(st[--n].callees);
	}
	free(st);
	return ret;
}

/* The name, in the caller, of the member REST ("->n", ".len") of a
 * callee's parameter passed ARG: "q->n" for q, "x.n" for &x, "q->s->n"
 * for q->s; NULL (malloc'd otherwise) when ARG is no such expression. */
static char *member_rename(CXCursor arg, const char *rest)
{
	CXCursor a = strip(arg);
	char *base = NULL;
	const char *sep = "";
	if (kind(a) == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_AddrOf) {
		if (rest[0] != '-')
			return NULL;
		kids k = {0};
		kids_of(a, &k);
		base = k.n == 1 ? member_text(k.c[0]) : NULL;
		kids_free(&k);
		sep = ".";
		rest += 2; /* (&x)->n is x.n */
	} else {
		base = member_text(a);
	}
	if (!base)
		return NULL;
	size_t n = strlen(base) + strlen(sep) + strlen(rest) + 1;
	char *r = xmalloc(n);
	snprintf(r, n, "%s%s%s", base, sep, rest);
	free(base);
	return r;
}

typedef struct hcall_walk {
	fn *fns, *f;
	int n, cap;
} hcall_walk;

static enum CXChildVisitResult hcall_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	hcall_walk *hw = d;
	fn *f = hw->f;
	if (kind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	char *name = spelling(c);
	fn *g = NULL;
	for (int i = 0; i < hw->n && !g; i++)
		if (hw->fns[i].header && &hw->fns[i] != f && strcmp(hw->fns[i].name, name) == 0)
			g = &hw->fns[i];
	free(name);
	if (g)
		cf_header_loops(hw->fns, hw->n, g);
	if (!g || !g->nhl || f->nhl + g->nhl > EPI_SYN_LOOPS)
		return CXChildVisit_Recurse;
	/* G's loops, inside F's own loop around the call */
	int line = line_of(c), around = epi_nest_around(f->hl, f->nown, line), at = f->nhl;
	CXSourceLocation loc = clang_getCursorLocation(c);
	unsigned col = 0;
	clang_getExpansionLocation(loc, NULL, NULL, &col, NULL);
	f->hcall = xrealloc(f->hcall, (size_t)(f->nhcall + 1) * sizeof *f->hcall);
	f->hcall[f->nhcall][0] = line;
	f->hcall[f->nhcall][1] = (int)col;
	f->hcall[f->nhcall++][2] = at;
	ALLOC_GROW(f->hl, f->nhl + g->nhl, hw->cap);
	for (int j = 0; j < g->nhl; j++) {
		epi_nest *x = &f->hl[f->nhl++];
		*x = g->hl[j];
		x->file = xstrdup(g->hl[j].file);
		x->function = xstrdup(f->name);
		x->parent = g->hl[j].parent >= 0 ? at + g->hl[j].parent : around;
		x->depth = x->parent >= 0 ? f->hl[x->parent].depth + 1 : 0;
	}
	return CXChildVisit_Recurse;
}

void cf_header_loops(fn *fns, int n, fn *f)
{
	if (f->hdone || f->hbusy)
		return;
	f->hbusy = 1;
	hcall_walk hw = {.fns = fns, .f = f, .n = n};
	cf_list_loops(f->cur, f->header, f->name, &f->hl, &f->nhl, &hw.cap, NULL, NULL, NULL);
	f->nown = f->nhl;
	clang_visitChildren(f->cur, hcall_visit, &hw);
	f->hbusy = 0;
	f->hdone = 1;
}

/* The tag of loop C's counts for the compiled-code model (epi_loop_tag),
 * or in a header's function -(K + 1) for its loop K (of its own loops in
 * cf_header_loops' list), 0 beyond EPI_SYN_LOOPS. */
static int loop_tag(W *w, CXCursor c)
{
	if (!w->foreign)
		return epi_loop_tag(line_of(c), w->cur ? loops_before(w->cur->cur, c) : 0, w->loop_line);
	fn *f = w->cur;
	cf_header_loops(w->fns, w->nfns, f);
	int line = line_of(c);
	for (int k = 0; k < f->nown && k < EPI_SYN_LOOPS; k++)
		if (f->hl[k].line == line)
			return -(k + 1);
	return 0;
}

/* A header's function's counts CC at its call C: its loops' tags (-K - 1)
 * as the loops of that call (epi_analysis' syn_base), from a call in the
 * file; from a call in a header's function, as that function's loops
 * (cf_header_loops' block of the call), dropped when it has none. */
static void tag_call_loops(W *w, CXCursor c, epi_counts *cc)
{
	int any = 0;
	for (int i = 0; i < cc->n && !any; i++)
		any = cc->key[i][0] == '%' && cc->key[i][1] == '-';
	if (!any)
		return;
	epi_counts t;
	counts_init(&t);
	int line = line_of(c), off = -1;
	if (w->foreign) { /* the block of this call among the caller's loops */
		unsigned col = 0;
		clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, &col, NULL);
		cf_header_loops(w->fns, w->nfns, w->cur);
		for (int k = 0; k < w->cur->nhcall && off < 0; k++)
			if (w->cur->hcall[k][0] == line && w->cur->hcall[k][1] == (int)col)
				off = w->cur->hcall[k][2];
	}
	for (int i = 0; i < cc->n; i++) {
		const char *key = cc->key[i];
		if (key[0] != '%' || key[1] != '-') {
			counts_add_scaled(w->s, &t, key, cc, i, 1);
			continue;
		}
		char *end;
		long k = strtol(key + 2, &end, 10) - 1;
		if (*end != '/' || k < 0 || k >= EPI_SYN_LOOPS)
			continue;
		char renamed[200];
		if (w->foreign) {
			if (off < 0 || off + k >= EPI_SYN_LOOPS)
				continue;
			snprintf(renamed, sizeof renamed, "%%-%ld%s", (long)off + k + 1, end);
		} else {
			if (line <= 0 || line > (INT_MAX - w->syn_base) / EPI_SYN_LOOPS - 1)
				continue;
			snprintf(renamed, sizeof renamed, "%%%ld%s", (long)w->syn_base + (long)line * EPI_SYN_LOOPS + k,
				 end);
		}
		counts_add_scaled(w->s, &t, renamed, cc, i, 1);
	}
	t.approx = cc->approx;
	counts_clear(w->s, cc);
	*cc = t;
}

/* For the compiled-code model: the work of a call made in a loop (CC, the
 * callee's counts at the call) in the loop's sums of work per iteration,
 * where a compiler that inlines the callee puts it. Only a callee with no
 * loop of its own (a helper such as a square or a clamp): a callee's loop
 * inlined is a machine loop of its own, whose work is not the loop's. */
static void loop_work_of_call(W *w, epi_counts *out, const epi_counts *cc)
{
	if (!w->o->tag_loops || !w->loop_line || counts_find(cc, "iter") >= 0)
		return;
	for (int i = 0; i < cc->n; i++) {
		const char *key = cc->key[i], *sum;
		int weight;
		if (key[0] == '%' || key[0] == '@' || strchr(key, '/') || !(sum = epi_op_loop_sum(key, &weight)) ||
		    strcmp(sum, "iter") == 0)
			continue;
		char tagged[400];
		snprintf(tagged, sizeof tagged, "%%%d/%s", w->loop_line, sum);
		counts_add_scaled(w->s, out, tagged, cc, i, weight);
	}
}

/* Where call C of F counts: OUT, or, when the compiled code moved it out
 * of the loops around it, what is added once per entry of the outermost
 * loop it left. */
static epi_counts *hoisted_to(W *w, CXCursor c, const fn *f, epi_counts *out)
{
	if (!w->o->nhoisted_calls || !w->nhoist || !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return out;
	int line = line_of(c);
	for (int i = 0; i < w->o->nhoisted_calls; i++) {
		const epi_call_site *h = &w->o->hoisted_calls[i];
		if (h->line != line || strcmp(h->callee, f->name) != 0)
			continue;
		for (int k = w->nhoist - 1; k >= 0; k--)
			if (w->hoist_line[k] == h->out_of) {
				note(w, c, "the compiled code calls %s() once per run of the loop on line %d, before it "
					   "(the compiler moved the call out): counted so", f->name, h->out_of);
				return w->hoist[k];
			}
	}
	return out;
}

/* What reads_where() looks for in an expression: a variable for which
 * HIT says yes, or (with CALLS) a call; and whether it found one. */
typedef struct rread {
	int (*hit)(CXCursor var, const void *ctx);
	const void *ctx;
	int calls, found;
} rread;

static enum CXChildVisitResult rread_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	rread *x = d;
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_CallExpr && x->calls) {
		x->found = 1;
	} else if (k == CXCursor_DeclRefExpr) {
		CXCursor v = clang_getCursorReferenced(c);
		enum CXCursorKind vk = kind(v);
		x->found = (vk == CXCursor_VarDecl || vk == CXCursor_ParmDecl) && x->hit(v, x->ctx);
	}
	return x->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether expression E (null: none) reads a variable for which HIT (with
 * CTX) says yes, or, with CALLS, calls a function. */
static int reads_where(CXCursor e, int (*hit)(CXCursor var, const void *ctx), const void *ctx, int calls)
{
	if (clang_Cursor_isNull(e))
		return 0;
	rread x = {hit, ctx, calls, 0};
	if (rread_visit(e, e, &x) == CXChildVisit_Recurse)
		clang_visitChildren(e, rread_visit, &x);
	return x.found;
}

/* A variable that a loop around the code being counted (W) writes. */
static int loops_write(CXCursor v, const void *ctx)
{
	const W *w = ctx;
	for (int i = 0; i < w->loopdepth; i++)
		if (writes(w->loopstmt[i], v, NULL))
			return 1;
	return 0;
}

/* Whether call C, in loops of the function being counted, passes the same
 * arguments at every iteration of them: none reads a variable the loops
 * write, or calls a function (then the callee's loops write the same
 * places each time: a kernel called at each step of a run) */
static int same_places(const W *w, CXCursor c)
{
	if (w->loopdepth == 0 || w->loopdepth > MAXDEPTH)
		return 0;
	int nargs = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < nargs; i++)
		if (reads_where(clang_Cursor_getArgument(c, i), loops_write, w, 1))
			return 0;
	return 1;
}

static CXCursor loop_body(CXCursor c);

/* The writes in a loop's code, for repeats_places(): to a variable (its
 * declaration; the value written, null for ++, -- and &; whether the
 * write updates the variable from itself), or through an array or a
 * pointer (the lvalue, var null) */
typedef struct rwrite {
	CXCursor var, rhs, lv;
	int self;
} rwrite;

typedef struct rscan {
	rwrite *v;
	int n, cap;
	int calls;
} rscan;

/* Variables, for reads_any(). */
typedef struct varlist {
	const CXCursor *v;
	int n;
} varlist;

static int in_list(CXCursor var, const void *ctx)
{
	const varlist *l = ctx;
	for (int i = 0; i < l->n; i++)
		if (clang_equalCursors(var, l->v[i]))
			return 1;
	return 0;
}

/* Whether expression E (null: none) reads one of the N variables VARS. */
static int reads_any(CXCursor e, const CXCursor *vars, int n)
{
	varlist l = {vars, n};
	return n > 0 && reads_where(e, in_list, &l, 0);
}

static enum CXChildVisitResult rscan_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	rscan *x = d;
	enum CXCursorKind k = kind(c);
	if (k == CXCursor_CallExpr) {
		x->calls = 1;
		return CXChildVisit_Break;
	}
	rwrite w = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(), 0};
	if (k == CXCursor_VarDecl) { /* a declaration sets it anew */
		kids vk = {0};
		kids_of(c, &vk);
		w.var = c;
		w.rhs = vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1])) ? vk.c[vk.n - 1] : clang_getNullCursor();
		kids_free(&vk);
	} else {
		CXCursor lv = written_by(c);
		if (clang_Cursor_isNull(lv))
			return CXChildVisit_Recurse;
		lv = strip(lv);
		CXCursor v = kind(lv) == CXCursor_DeclRefExpr ? clang_getCursorReferenced(lv) : clang_getNullCursor();
		if (!clang_Cursor_isNull(v) && (kind(v) == CXCursor_VarDecl || kind(v) == CXCursor_ParmDecl)) {
			w.var = v;
			if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
				kids bk = {0};
				kids_of(c, &bk);
				w.rhs = bk.n == 2 ? bk.c[1] : clang_getNullCursor();
				kids_free(&bk);
			}
			/* x = ... x ..., x += e, x++, &x */
			w.self = k != CXCursor_BinaryOperator || reads_any(w.rhs, &v, 1);
		} else {
			w.lv = lv;
		}
	}
	ALLOC_GROW(x->v, x->n + 1, x->cap);
	x->v[x->n++] = w;
	return CXChildVisit_Recurse;
}

/* Whether loop C writes the same places at each of its iterations (a
 * time or repetition loop around a sweep: for (t = 0; t < steps; t++)
 * for (i...) u[i] = ...): no store's address reads a variable whose value
 * differs from one iteration to the next, those its header writes, those
 * its code carries from one iteration to the next (updated from
 * themselves and never set anew), and those set from such; and it calls
 * no function. */
static int repeats_places(CXCursor c)
{
	CXCursor body = loop_body(c);
	if (clang_Cursor_isNull(body))
		return 0;
	rscan head = {0}, in = {0};
	kids kk = {0};
	kids_of(c, &kk);
	for (int i = 0; i < kk.n; i++)
		if (!clang_equalCursors(kk.c[i], body) && rscan_visit(kk.c[i], c, &head) == CXChildVisit_Recurse)
			clang_visitChildren(kk.c[i], rscan_visit, &head);
	kids_free(&kk);
	if (rscan_visit(body, c, &in) == CXChildVisit_Recurse)
		clang_visitChildren(body, rscan_visit, &in);
	/* a loop of very many writes: no claim (the search is quadratic) */
	int ok = !head.calls && !in.calls && in.n <= 4096, nv = 0, stores = 0;
	CXCursor *vary = xmalloc(((size_t)head.n + (size_t)in.n + 1) * sizeof *vary);
	for (int i = 0; i < head.n; i++)
		if (!clang_Cursor_isNull(head.v[i].var))
			vary[nv++] = head.v[i].var;
	/* carried: a variable updated from itself, never set anew in the loop */
	char *carried = xcalloc((size_t)in.n + 1, 1);
	for (int i = 0; ok && i < in.n; i++) {
		int reset = 0;
		for (int j = 0; in.v[i].self && j < in.n && !reset; j++)
			reset = !in.v[j].self && clang_equalCursors(in.v[j].var, in.v[i].var);
		carried[i] = in.v[i].self && !reset;
	}
	for (int changed = 1, round = 0; ok && changed && round < 16; round++) {
		changed = 0;
		for (int i = 0; i < in.n; i++) {
			const rwrite *w = &in.v[i];
			if (clang_Cursor_isNull(w->var))
				continue;
			varlist known = {vary, nv};
			if (in_list(w->var, &known))
				continue;
			if (carried[i] || reads_any(w->rhs, vary, nv)) {
				vary[nv++] = w->var;
				changed = 1;
			}
		}
	}
	for (int i = 0; ok && i < in.n; i++)
		if (!clang_Cursor_isNull(in.v[i].lv)) {
			stores++;
			ok = !reads_any(in.v[i].lv, vary, nv);
		}
	free(carried);
	free(vary);
	free(head.v);
	free(in.v);
	return ok && stores > 0;
}

/* Whether call C of F is one the compiled code does not make (then
 * noted); else, with tag_loops, C counted as a call site of the file, and
 * as one that repeats its arguments when same_places() says so. */
static int dead_call(W *w, CXCursor c, const fn *f, epi_counts *out)
{
	if ((!w->o->tag_loops && !w->o->ndead_calls) || f->state == 1)
		return 0; /* a recursive call is listed, not counted, either way */
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return 0;
	int line = line_of(c);
	for (int i = 0; i < w->o->ndead_calls; i++)
		if (w->o->dead_calls[i].line == line && strcmp(w->o->dead_calls[i].callee, f->name) == 0) {
			note(w, c, "the compiled code makes no call to %s() here, nor has its code inlined "
				   "(the compiler removed the call or folded it away): its work is not counted", f->name);
			return 1;
		}
	if (w->o->tag_loops) {
		char key[200];
		epi_counts *to = hoisted_to(w, c, f, out);
		snprintf(key, sizeof key, "%%call:%d:%s/site", line, f->name);
		counts_add_si(w->s, to, key, 1);
		if (same_places(w, c)) {
			snprintf(key, sizeof key, "%%call:%d:%s/same", line, f->name);
			counts_add_si(w->s, to, key, 1);
		}
	}
	return 0;
}

/* The trip-count parameters (trip_fallback) that counts C use. */
static int trip_params_used(sym_ctx *s, const epi_counts *c)
{
	int used[SYM_MAXVARS] = {0}, n = 0;
	counts_params(s, c, used);
	for (int k = 0; k < s->nvars; k++)
		n += used[k] && sym_is_trip(s, k);
	return n;
}

/* How deep calls are counted again for their constant arguments (each
 * function once for each set of values: fn_spec). */
#define SPEC_DEPTH 16

void cf_fn_specs_free(sym_ctx *s, fn *f)
{
	for (int i = 0; i < f->nspecs; i++)
		counts_clear(s, &f->specs[i].counts);
	free(f->specs);
	f->specs = NULL;
	f->nspecs = f->capspecs = 0;
}

/* F's counts CC (its parameters not yet replaced) for call C, counted
 * again with the parameters that C passes integer constants pinned to
 * them, when F's own counts need trip-count parameters: a loop that
 * steps by a parameter (ii += b), which no polynomial counts, is counted
 * exactly for a call that passes b = 32.  CC is replaced when the walk
 * needs fewer trip-count parameters; F's own counts and regions stay
 * those of any call.  A walk for the same values is done once (f->specs).
 * Returns -1 only when the walk reached a body its thread did not parse
 * (w->missing: the file is walked again whole). */
static int specialize_call(W *w, CXCursor c, fn *f, epi_counts *cc)
{
	sym_ctx *s = w->s;
	int ntrip = f->header || w->spec >= SPEC_DEPTH ? 0 : trip_params_used(s, cc);
	if (ntrip == 0)
		return 0;
	int nargs = clang_Cursor_getNumArguments(c), npin = 0, idx[MAXDEPTH];
	CXCursor decl[MAXDEPTH];
	long val[MAXDEPTH];
	char given[200] = "";
	size_t gl = 0;
	poly_t v;
	poly_init(v, s->ctx);
	for (int i = 0; i < f->nparams && i < nargs && npin < MAXDEPTH; i++) {
		CXCursor d = clang_Cursor_getArgument(f->cur, i);
		if (kind(d) != CXCursor_ParmDecl || expr_poly(w, clang_Cursor_getArgument(c, i), v) != 0 ||
		    !poly_is_fmpq(v, s->ctx) || fn_writes_of(f, d, NULL, NULL, 0) > 0)
			continue;
		fmpq_t q;
		fmpq_init(q);
		poly_get_fmpq(q, v, s->ctx);
		if (fmpz_is_one(fmpq_denref(q)) && fmpz_fits_si(fmpq_numref(q))) {
			idx[npin] = i;
			decl[npin] = d;
			val[npin++] = fmpz_get_si(fmpq_numref(q));
			if (gl < sizeof given)
				gl += (size_t)snprintf(given + gl, sizeof given - gl, "%s%s = %ld", gl ? ", " : "",
						       f->params[i], val[npin - 1]);
		}
		fmpq_clear(q);
	}
	poly_clear(v, s->ctx);
	if (npin == 0)
		return 0;
	fn_spec *sp = NULL;
	for (int k = 0; k < f->nspecs && !sp; k++)
		if (f->specs[k].npin == npin && !memcmp(f->specs[k].idx, idx, npin * sizeof *idx) &&
		    !memcmp(f->specs[k].val, val, npin * sizeof *val))
			sp = &f->specs[k];
	int ret = 0;
	if (!sp) {
		epi_analysis *a = w->a;
		int nerrors = a->nerrors, nnotes = a->nnotes;
		epi_counts own = f->counts;
		counts_init(&f->counts);
		/* the pins the walk starts from (a walk inside it sets its own) */
		memcpy(w->spec_decl, decl, npin * sizeof *decl);
		memcpy(w->spec_val, val, npin * sizeof *val);
		w->nspec_pin = npin;
		w->spec++;
		/* what the walk adds, to drop when its counts are not kept: the
		 * symbols it makes, the counts kept for the calls inside it */
		sym_mark mark;
		sym_mark_take(s, &mark);
		int *kept = xmalloc(((size_t)w->nfns + 1) * sizeof *kept), nfin = w->nfin;
		for (int i = 0; i < w->nfns; i++)
			kept[i] = w->fns[i].nspecs;
		/* F and its callees were counted before: the walk leaves no
		 * function newly counted, and a statement that ran out of
		 * symbols may still be counted again in a wider table */
		int analyzed = w->analyzed, full0 = s->full;
		s->full = 0;
		ret = cf_analyze_fn(w, f);
		/* a symbol refused inside the walk (a call in it listed, say):
		 * its counts are not the call's, nor kept for the next calls,
		 * and the statement is counted again in a wider table */
		int refused = s->full;
		s->full |= full0;
		w->analyzed = analyzed;
		w->spec--;
		w->nspec_pin = 0;
		epi_counts one = f->counts;
		f->counts = own;
		int better = ret == 0 && !refused && trip_params_used(s, &one) < ntrip;
		if (!better) { /* what the walk said and made is not the call's */
			counts_clear(s, &one);
			counts_init(&one);
			while (a->nerrors > nerrors)
				free(a->errors[--a->nerrors]);
			while (a->nnotes > nnotes)
				free(a->notes[--a->nnotes]);
			for (int i = 0; i < w->nfns; i++)
				while (w->fns[i].nspecs > kept[i])
					counts_clear(s, &w->fns[i].specs[--w->fns[i].nspecs].counts);
			while (w->nfin > nfin)
				counts_clear(s, &w->fin[--w->nfin].v);
			int full = (ret < 0 || refused) && s->full;
			sym_release(s, &mark);
			if (full) {
				w->nfallback++; /* the statement is counted again in a wider table */
				s->full = 1;
			}
		} else {
			free(mark.taken);
		}
		free(kept);
		if (ret < 0 || refused) /* not kept: a wider table may count it */
			return w->missing ? -1 : 0;
		ALLOC_GROW(f->specs, f->nspecs + 1, f->capspecs);
		sp = &f->specs[f->nspecs++];
		sp->npin = npin;
		memcpy(sp->idx, idx, npin * sizeof *idx);
		memcpy(sp->val, val, npin * sizeof *val);
		sp->better = better;
		sp->counts = one;
	}
	if (sp->better) {
		counts_clear(s, cc);
		counts_init(cc);
		counts_set(s, cc, &sp->counts);
		note(w, c, "%s() is counted for this call's %s: its loops' trip counts %s", f->name, given,
		     trip_params_used(s, cc) ? "need fewer parameters" : "are known");
	}
	return 0;
}

static int call(W *w, CXCursor c, epi_counts *out)
{
	sym_ctx *s = w->s;
	int nargs = clang_Cursor_getNumArguments(c);
	for (int i = 0; i < nargs; i++)
		if (rval(w, clang_Cursor_getArgument(c, i), out) < 0)
			return -1;
	char *raw = spelling(c);
	char nbuf[128];
	const char *name = base_name(raw, nbuf, sizeof nbuf);
	int ret = 0;
	enum epi_op bytes_cls = EPI_OP_COUNT;
	int bytes_arg = -1, bytes_arg2 = -1;
	/* the C library's copies and allocators, and PolyBench's allocator
	 * (its harness allocates every array through it, n elements of
	 * elt_size bytes, in a file of its own): the bytes are the argument,
	 * or the product of the two */
	static const struct {
		const char *name;
		enum epi_op cls;
		int arg, arg2;
	} bytes_fns[] = {
		{"memcpy", EPI_OP_MEMCPY, 2, -1},	 {"memmove", EPI_OP_MEMCPY, 2, -1},
		{"memset", EPI_OP_MEMCPY, 2, -1},	 {"malloc", EPI_OP_MALLOC, 0, -1},
		{"calloc", EPI_OP_MALLOC, 0, 1},	 {"realloc", EPI_OP_MALLOC, 1, -1},
		{"reallocarray", EPI_OP_MALLOC, 1, 2},	 {"aligned_alloc", EPI_OP_MALLOC, 1, -1},
		{"memalign", EPI_OP_MALLOC, 1, -1},	 {"posix_memalign", EPI_OP_MALLOC, 2, -1},
		{"valloc", EPI_OP_MALLOC, 0, -1},	 {"pvalloc", EPI_OP_MALLOC, 0, -1},
		{"polybench_alloc_data", EPI_OP_MALLOC, 0, 1},
	};
	for (size_t i = 0; i < sizeof bytes_fns / sizeof *bytes_fns; i++)
		if (!strcmp(name, bytes_fns[i].name)) {
			bytes_cls = bytes_fns[i].cls;
			bytes_arg = bytes_fns[i].arg;
			bytes_arg2 = bytes_fns[i].arg2;
			break;
		}
	fn *f = find_fn(w, raw);
	if (f && f->uncounted)
		goto listed;
	if (bytes_cls != EPI_OP_COUNT && !f && bytes_arg < nargs && bytes_arg2 < nargs) {
		poly_t b, b2;
		poly_init(b, s->ctx);
		poly_init(b2, s->ctx);
		int ok = expr_poly(w, clang_Cursor_getArgument(c, bytes_arg), b) == 0;
		if (ok && bytes_arg2 >= 0) {
			ok = expr_poly(w, clang_Cursor_getArgument(c, bytes_arg2), b2) == 0;
			poly_mul(b, b, b2, s->ctx);
		}
		if (ok) {
			count_poly(w, out, epi_op_name(bytes_cls), b);
		} else {
			note(w, c, "the size passed to %s() is not a polynomial in the parameters: call listed, bytes not counted", name);
			char key[160];
			snprintf(key, sizeof key, "call:%s", name);
			count_si(w, out, key, 1);
		}
		poly_clear(b, s->ctx);
		poly_clear(b2, s->ctx);
		goto out;
	}
	for (int i = 0; print_fns[i]; i++)
		if (!f && strcmp(name, print_fns[i]) == 0) {
			count_si(w, out, "print", 1);
			goto out;
		}
	if (f && dead_call(w, c, f, out))
		goto out;
	if (f) {
		if (f->state == 1) {
			note(w, c, "recursive call to %s() is listed, not counted", raw);
			w->recursive = 1;
		} else {
			f->called = 1;
			if (f->state == 0 && w->fndepth >= DEEP_CALLS && analyze_deep(w, f) < 0) {
				ret = -1;
				goto out;
			}
			int nerrors = w->a->nerrors, nnotes = w->a->nnotes;
			if (f->state == 0 && cf_analyze_fn(w, f) < 0) {
				if (f->header && !w->missing && !w->s->full) {
					/* a header's function beyond the analysis: the
					 * call listed, as any it cannot see into */
					while (w->a->nerrors > nerrors)
						free(w->a->errors[--w->a->nerrors]);
					while (w->a->nnotes > nnotes)
						free(w->a->notes[--w->a->nnotes]);
					f->uncounted = xstrdup(w->err);
					counts_clear(s, &f->counts);
					counts_init(&f->counts);
					goto listed;
				}
				if (f->header) { /* counted again when the walk is */
					f->state = 0;
					counts_clear(s, &f->counts);
					counts_init(&f->counts);
				}
				ret = -1;
				goto out;
			}
			/* the callee's counts with its parameters replaced by the arguments */
			epi_counts cc;
			counts_init(&cc);
			counts_set(s, &cc, &f->counts);
			if (specialize_call(w, c, f, &cc) < 0) {
				counts_clear(s, &cc);
				ret = -1;
				goto out;
			}
			poly_struct *sub[SYM_MAXVARS] = {0};
			poly_struct argp[SYM_MAXVARS];
			int nown = 0;
			for (int i = 0; i < f->nparams && i < nargs; i++) {
				int v = -1;
				for (int k = 0; k < s->nvars; k++)
					if (s->kind[k] != SYM_ATOM && s->kind[k] != SYM_FREE && strcmp(s->name[k], f->params[i]) == 0)
						v = k;
				if (v < 0 || nown == SYM_MAXVARS)
					continue;
				poly_init(&argp[nown], s->ctx);
				if (expr_poly(w, clang_Cursor_getArgument(c, i), &argp[nown]) == 0)
					sub[v] = &argp[nown];
				nown++;
			}
			/* a member reached through a parameter: the callee's p->n is the
			 * caller's q->n for the argument q (x.n for &x) */
			int mused[SYM_MAXVARS] = {0};
			counts_params(s, &cc, mused);
			for (int k = 0, nv = s->nvars; k < nv && nown < SYM_MAXVARS; k++) {
				if (!mused[k] || s->kind[k] != SYM_PARAM || sub[k])
					continue;
				for (int i = 0; i < f->nparams && i < nargs; i++) {
					size_t pl = strlen(f->params[i]);
					const char *nm = s->name[k];
					if (!pl || strncmp(nm, f->params[i], pl) != 0 ||
					    !(nm[pl] == '.' || (nm[pl] == '-' && nm[pl + 1] == '>')))
						continue;
					char *renamed = member_rename(clang_Cursor_getArgument(c, i), nm + pl);
					int v = renamed ? sym_var(s, renamed, SYM_PARAM) : -1;
					free(renamed);
					if (v >= 0) {
						poly_init(&argp[nown], s->ctx);
						poly_set(&argp[nown], &s->gen[v], s->ctx);
						sub[k] = &argp[nown++];
					}
					break;
				}
			}
			/* a parameter bound to a non-polynomial argument stays free only if the counts use it */
			int used[SYM_MAXVARS] = {0};
			counts_params(s, &cc, used);
			for (int i = 0; i < f->nparams && i < nargs; i++)
				for (int k = 0; k < s->nvars; k++)
					if (used[k] && !sub[k] && s->kind[k] == SYM_PARAM && strcmp(s->name[k], f->params[i]) == 0)
						note(w, c, "argument %d of %s() is not a polynomial in the parameters; its count "
							   "keeps the parameter '%s'", i + 1, raw, f->params[i]);
			int composed = counts_compose(s, &cc, sub);
			if (composed < 0 && s->full) {
				/* beyond the table (which a statement counted again
				 * may widen, as for a loop's fallback): listed, said so */
				w->nfallback++;
				note(w, c, "%s()'s counts for this call's arguments are beyond the analysis (%s): the "
					   "call is listed, its work not counted", raw, s->err);
				char key[160];
				snprintf(key, sizeof key, "call:%s", raw);
				count_si(w, out, key, 1);
			} else if (composed < 0) {
				ret = fail(w, c, "%s", s->err);
			} else {
				if (f->header && w->o->tag_loops)
					tag_call_loops(w, c, &cc);
				epi_counts *to = hoisted_to(w, c, f, out);
				counts_add(s, to, &cc);
				if (to == out)
					loop_work_of_call(w, out, &cc);
				if (f->header && w->o->tag_loops && !w->foreign) {
					/* for the compiled-code model, which does not
					 * read a header's code: the file calls it */
					char hk[200];
					snprintf(hk, sizeof hk, "%%hdr:%s/site", f->name);
					counts_add_si(s, to, hk, 1);
				}
			}
			for (int i = 0; i < nown; i++)
				poly_clear(&argp[i], s->ctx);
			counts_clear(s, &cc);
			goto out;
		}
	}
listed: {
		char key[160];
		/* through a function pointer: call:*f */
		CXCursor callee = clang_getCursorReferenced(c);
		int indirect = clang_Cursor_isNull(callee) || kind(callee) != CXCursor_FunctionDecl;
		snprintf(key, sizeof key, "call:%s%s", indirect ? "*" : "", raw[0] ? raw : "(indirect)");
		count_si(w, out, key, 1);
		/* a function that a header of the program's own defines (not the
		 * system's) whose work cannot be counted: said why */
		CXCursor def = indirect ? clang_getNullCursor() : clang_getCursorDefinition(callee);
		CXSourceLocation at = clang_getCursorLocation(def);
		if (!clang_Cursor_isNull(def) && !clang_Location_isFromMainFile(at) && !clang_Location_isInSystemHeader(at)) {
			CXFile file;
			unsigned line;
			clang_getExpansionLocation(at, &file, &line, NULL, NULL);
			CXString fname = clang_getFileName(file);
			const char *fs = clang_getCString(fname), *b = fs ? strrchr(fs, '/') : NULL;
			if (f && f->uncounted)
				note(w, c, "%s() is defined in %s:%u: the call is listed, its work not counted (%s)", raw,
				     b ? b + 1 : fs ? fs : "another file", line, f->uncounted);
			else
				note(w, c, "%s() is defined in %s:%u, not in this file: the call is listed, its work not "
					   "counted", raw, b ? b + 1 : fs ? fs : "another file", line);
			clang_disposeString(fname);
		}
	}
out:
	free(raw);
	return ret;
}

/* The name of the atomic builtin that C (an expression libclang does not
 * expose) is, as written: __atomic_fetch_add, __c11_atomic_load, or
 * <stdatomic.h>'s atomic_fetch_add (a macro around them); else NULL. */
static char *atomic_op(W *w, CXCursor c)
{
	/* the first two tokens where it is written (a macro's name and its
	 * parenthesis, for a macro) */
	CXFile f;
	unsigned off;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
	size_t len = 0;
	if (!f || !clang_getFileContents(w->tu, f, &len) || off >= len)
		return NULL;
	CXToken *toks;
	unsigned n;
	size_t end = off + 64 < len ? off + 64 : len;
	clang_tokenize(w->tu, clang_getRange(clang_getLocationForOffset(w->tu, f, off),
					     clang_getLocationForOffset(w->tu, f, (unsigned)end)),
		       &toks, &n);
	char *name = NULL;
	if (n >= 2 && clang_getTokenKind(toks[0]) == CXToken_Identifier) {
		CXString s = clang_getTokenSpelling(w->tu, toks[0]), p = clang_getTokenSpelling(w->tu, toks[1]);
		const char *t = clang_getCString(s), *paren = clang_getCString(p);
		if (t && paren && !strcmp(paren, "(") &&
		    (!strncmp(t, "__atomic_", 9) || !strncmp(t, "__c11_atomic_", 13) || !strncmp(t, "atomic_", 7)))
			name = xstrdup(t);
		clang_disposeString(s);
		clang_disposeString(p);
	}
	clang_disposeTokens(w->tu, toks, n);
	return name;
}

/* Whether the function that call C calls never returns: declared
 * noreturn (exit, abort, the C library's assertion failure, err), by the
 * GNU attribute, which its type shows, or by C11's _Noreturn or C23's
 * [[noreturn]], which its declaration's first tokens show. */
static int noreturn_call(W *w, CXCursor c)
{
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(d) || kind(d) != CXCursor_FunctionDecl)
		return 0;
	CXString ts = clang_getTypeSpelling(clang_getCursorType(d));
	const char *t = clang_getCString(ts);
	int yes = t && strstr(t, "noreturn") != NULL;
	clang_disposeString(ts);
	if (yes)
		return 1;
	CXToken *toks;
	unsigned n;
	/* the tokens before the name (a definition's extent holds its body) */
	clang_tokenize(w->tu, clang_getRange(clang_getRangeStart(clang_getCursorExtent(d)), clang_getCursorLocation(d)),
		       &toks, &n);
	CXString name = clang_getCursorSpelling(d);
	for (unsigned i = 0; i < n && !yes; i++) {
		CXString sp = clang_getTokenSpelling(w->tu, toks[i]);
		const char *k = clang_getCString(sp);
		if (k && !strcmp(k, clang_getCString(name)))
			i = n; /* the name: the specifiers are before it */
		else
			yes = k && (!strcmp(k, "_Noreturn") || !strcmp(k, "noreturn"));
		clang_disposeString(sp);
	}
	clang_disposeString(name);
	clang_disposeTokens(w->tu, toks, n);
	return yes;
}

/* Whether statement or expression C always ends in a call that does not
 * return (an error path: `if (!p) { perror(f); exit(1); }`, a failed
 * assertion). */
static int dies(W *w, CXCursor c)
{
	if (clang_Cursor_isNull(c))
		return 0;
	c = strip(attributed(c));
	kids kk = {0};
	int yes = 0;
	switch (kind(c)) {
	case CXCursor_CallExpr:
		yes = noreturn_call(w, c);
		break;
	case CXCursor_CompoundStmt: /* any statement of it that dies, as nothing after runs */
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && !yes; i++)
			yes = dies(w, kk.c[i]);
		break;
	case CXCursor_BinaryOperator: /* a comma: either side */
		if (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma) {
			kids_of(c, &kk);
			for (int i = 0; i < kk.n && !yes; i++)
				yes = dies(w, kk.c[i]);
		}
		break;
	case CXCursor_IfStmt: /* both ways */
	case CXCursor_ConditionalOperator:
		kids_of(c, &kk);
		yes = kk.n == 3 && dies(w, kk.c[1]) && dies(w, kk.c[2]);
		break;
	default:
		break;
	}
	kids_free(&kk);
	return yes;
}

/* cond_fixed()'s walk: a condition's variables checked against the loops
 * of the function. */
typedef struct fixed_cond {
	W *w;
	const fn_span *loops;
	int nloops, ok;
	int loopvars; /* the variables of the loops being counted are read too */
	int depth; /* the variables whose values are being read */
	int reads; /* the values read so far (at most 256: no size is read so long) */
} fixed_cond;

static enum CXChildVisitResult cond_var_visit(CXCursor c, CXCursor parent, CXClientData data);

/* Whether the expression E reads only what cond_var_visit() allows (E
 * itself included). */
static int reads_fixed(fixed_cond *f, CXCursor e)
{
	enum CXChildVisitResult r = cond_var_visit(e, e, f);
	if (r == CXChildVisit_Recurse)
		clang_visitChildren(e, cond_var_visit, f);
	return f->ok;
}

static enum CXChildVisitResult cond_var_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	fixed_cond *f = data;
	enum CXCursorKind ck = kind(c);
	/* memory or a call: no polynomial (and none of its parts made a
	 * parameter of) */
	if (ck == CXCursor_CallExpr || ck == CXCursor_ArraySubscriptExpr || ck == CXCursor_MemberRefExpr ||
	    (ck == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref)) {
		f->ok = 0;
		return CXChildVisit_Break;
	}
	if (ck != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	CXCursor r = clang_getCursorReferenced(c);
	enum CXCursorKind k = kind(r);
	if (k == CXCursor_EnumConstantDecl || k == CXCursor_FunctionDecl)
		return CXChildVisit_Continue;
	W *w = f->w;
	/* a loop's variable, or the value of one counted value by value */
	if (f->loopvars && ((!w->nvary && loop_var_of(w, r) >= 0) || pin_of(w, r) >= 0))
		return CXChildVisit_Continue;
	/* the function's own, declared outside its loops and set only by
	 * plain assignments outside them; not main()'s parameters: how the
	 * program is run, which the run predicted passes (and no size that
	 * --param binds) */
	f->ok = (k == CXCursor_VarDecl || (k == CXCursor_ParmDecl && strcmp(w->cur->name, "main") != 0)) &&
		clang_equalCursors(clang_getCursorSemanticParent(r), w->cur->cur);
	if (f->nloops < 0) /* what it reads alone */
		return f->ok ? CXChildVisit_Continue : CXChildVisit_Break;
	enum { MAXW = 32 };
	CXCursor at[MAXW];
	int n = f->ok ? fn_writes_of(w->cur, r, at, NULL, MAXW) : 0;
	f->ok = f->ok && n <= MAXW;
	if (f->ok) /* declared in a loop: anew each iteration */
		f->ok = !in_loops(r, f->loops, f->nloops);
	for (int i = 0; f->ok && i < n; i++)
		f->ok = kind(at[i]) == CXCursor_BinaryOperator &&
			clang_getCursorBinaryOperatorKind(at[i]) == CXBinaryOperator_Assign &&
			!in_loops(at[i], f->loops, f->nloops);
	/* a local's values, where declared and where assigned, read the
	 * same; or the local is a size of the function (its loops' headers
	 * read it), a parameter of the counts whatever sets it. One set by a
	 * call or from memory that no loop reads (int fd = open(...), int k =
	 * *arg) is no size: exact pieces in it would be counts that no --param
	 * the user gives evaluates */
	if (f->ok && k == CXCursor_VarDecl) {
		fixed_cond g = *f;
		g.depth++;
		g.ok = g.depth <= 8 && ++g.reads <= 256;
		kids vk = {0};
		kids_of(r, &vk);
		if (g.ok && vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1])))
			reads_fixed(&g, vk.c[vk.n - 1]);
		kids_free(&vk);
		for (int i = 0; g.ok && i < n; i++) {
			kids ak = {0};
			kids_of(at[i], &ak);
			g.ok = ak.n == 2 && reads_fixed(&g, ak.c[1]);
			kids_free(&ak);
		}
		f->reads = g.reads;
		f->ok = g.ok || fn_sized(w->cur, r);
	}
	return f->ok ? CXChildVisit_Continue : CXChildVisit_Break;
}

/* Whether condition E reads only what keeps its value through the
 * function's loops: parameters (not main()'s) and variables that no loop
 * of it sets (nor ++, -- or & anywhere) whose values read no call or
 * memory or that its loops' headers read (sizes), and constants; with
 * LOOPVARS, the variables of the loops being counted too (their values
 * in the iteration: symbols the loops sum over, or a loop's pinned value),
 * unless a loop around them is counted with a trip count. */
static int cond_fixed(W *w, CXCursor e, int loopvars)
{
	fixed_cond f = {.w = w, .ok = 1, .loopvars = loopvars};
	/* what E reads first, alone (most conditions read memory): the
	 * function's loops and writes are looked at only when it may do */
	f.nloops = -1;
	clang_visitChildren(e, cond_var_visit, &f);
	if (!f.ok)
		return 0;
	f.loops = fn_loops(w->cur, &f.nloops);
	clang_visitChildren(e, cond_var_visit, &f);
	return f.ok;
}

/* cond_constraints() of the comparison L OP R (==: two constraints, EQ set). */
static int cmp_constraints(W *w, CXCursor l, CXCursor r, enum CXBinaryOperatorKind op, poly_struct *c, int *n, int max,
			   int *eq)
{
	int ret = -1;
	if ((op == CXBinaryOperator_LT || op == CXBinaryOperator_LE || op == CXBinaryOperator_GT ||
	     op == CXBinaryOperator_GE || op == CXBinaryOperator_EQ) &&
	    *n + (op == CXBinaryOperator_EQ ? 2 : 1) <= max) {
		CXType ta = clang_getCanonicalType(clang_getCursorType(strip(l)));
		CXType tb = clang_getCanonicalType(clang_getCursorType(strip(r)));
		int ints = ta.kind >= CXType_Bool && ta.kind <= CXType_Int128 && tb.kind >= CXType_Bool &&
			   tb.kind <= CXType_Int128;
		poly_t a, b;
		poly_init(a, w->s->ctx);
		poly_init(b, w->s->ctx);
		if (ints && expr_poly(w, l, a) == 0 && expr_poly(w, r, b) == 0) {
			ret = 0;
			poly_struct *d = &c[(*n)++];
			poly_init(d, w->s->ctx);
			if (op == CXBinaryOperator_LT || op == CXBinaryOperator_LE) {
				poly_sub(d, b, a, w->s->ctx);
				if (op == CXBinaryOperator_LT)
					poly_sub_si(d, d, 1, w->s->ctx);
			} else {
				poly_sub(d, a, b, w->s->ctx);
				if (op == CXBinaryOperator_GT)
					poly_sub_si(d, d, 1, w->s->ctx);
			}
			if (op == CXBinaryOperator_EQ) {
				poly_struct *d2 = &c[(*n)++];
				poly_init(d2, w->s->ctx);
				poly_sub(d2, b, a, w->s->ctx);
				*eq = 1;
			}
		}
		poly_clear(a, w->s->ctx);
		poly_clear(b, w->s->ctx);
	}
	return ret;
}

/* The constraints (each c >= 0, at most MAX, into C from *N on) that
 * condition E, which reads what cond_fixed() allows, is: a comparison of
 * integers whose sides are polynomials in the parameters and the loops'
 * variables (a < b: b - a - 1 >= 0; a == b: both ways), or a conjunction
 * (&&) of them. Returns 0, or -1 when E is not one; EQ is set when an ==
 * is among them (its negation is no conjunction). */
static int cond_constraints(W *w, CXCursor e, poly_struct *c, int *n, int max, int *eq)
{
	e = strip(e);
	if (kind(e) != CXCursor_BinaryOperator)
		return -1;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	kids kk = {0};
	kids_of(e, &kk);
	int ret = -1;
	if (kk.n == 2 && op == CXBinaryOperator_LAnd) {
		ret = cond_constraints(w, kk.c[0], c, n, max, eq);
		if (ret == 0)
			ret = cond_constraints(w, kk.c[1], c, n, max, eq);
	} else if (kk.n == 2) {
		ret = cmp_constraints(w, kk.c[0], kk.c[1], op, c, n, max, eq);
	}
	kids_free(&kk);
	return ret;
}

/* Whether P reads a floor term of a loop variable (i % 20 == 0): a count
 * restricted to it is a sum over each remainder, one floor term each,
 * which keeps the branch probability instead. */
static int loop_quotient(sym_ctx *s, const poly_t p)
{
	int used[SYM_MAXVARS] = {0};
	poly_used_vars(used, p, s->ctx);
	for (int k = 0; k < s->nvars; k++) {
		if (!used[k] || s->kind[k] != SYM_ATOM)
			continue;
		int in[SYM_MAXVARS] = {0};
		poly_used_vars(in, &s->atom_num[k], s->ctx);
		for (int j = 0; j < s->nvars; j++)
			if (in[j] && (s->kind[j] == SYM_LOOP || (s->kind[j] == SYM_ATOM && loop_quotient(s, &s->gen[j]))))
				return 1;
	}
	return 0;
}

/* The most constraints a way of a condition has, and the most ways. */
#define IFC_MAX 8
#define WAYS_MAX 32

/* A condition as ways it can hold that do not overlap, each a
 * conjunction of constraints (each >= 0): if (i == 0 || j == 0) is the
 * ways i == 0, and i != 0 && j == 0.  No ways: never; one way with no
 * constraint: always. */
typedef struct ways {
	int n;
	int nc[WAYS_MAX];
	poly_struct c[WAYS_MAX][IFC_MAX];
} ways;

static void ways_clear(sym_ctx *s, ways *a)
{
	for (int k = 0; k < a->n; k++)
		for (int i = 0; i < a->nc[k]; i++)
			poly_clear(&a->c[k][i], s->ctx);
	a->n = 0;
}

/* Adds to A the way of the N constraints C and the M constraints D;
 * returns -1 when A has no room. */
static int way_add(sym_ctx *s, ways *a, const poly_struct *c, int n, const poly_struct *d, int m)
{
	if (a->n == WAYS_MAX || n + m > IFC_MAX)
		return -1;
	int k = a->n++;
	a->nc[k] = n + m;
	for (int i = 0; i < n + m; i++) {
		poly_init(&a->c[k][i], s->ctx);
		poly_set(&a->c[k][i], i < n ? &c[i] : &d[i - n], s->ctx);
	}
	return 0;
}

/* OUT = A and B: each way of A with each of B. */
static int ways_and(sym_ctx *s, ways *out, const ways *a, const ways *b)
{
	out->n = 0;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++)
			if (way_add(s, out, a->c[i], a->nc[i], b->c[j], b->nc[j]) < 0)
				return -1;
	return 0;
}

/* OUT = not A: no way of A holds, each way failing at its first
 * constraint that fails (c1 < 0; c1 >= 0 and c2 < 0; ...). */
static int ways_not(sym_ctx *s, ways *out, const ways *a)
{
	ways acc = {0}, one = {0}, next = {0};
	int ret = way_add(s, &acc, NULL, 0, NULL, 0); /* always */
	poly_t neg;
	poly_init(neg, s->ctx);
	for (int k = 0; k < a->n && ret == 0; k++) {
		ways_clear(s, &one);
		for (int i = 0; i < a->nc[k] && ret == 0; i++) {
			poly_neg(neg, &a->c[k][i], s->ctx);
			poly_sub_si(neg, neg, 1, s->ctx); /* c < 0: -c - 1 >= 0 */
			ret = way_add(s, &one, a->c[k], i, neg, 1);
		}
		if (ret == 0)
			ret = ways_and(s, &next, &acc, &one);
		ways_clear(s, &acc);
		acc = next;
		next.n = 0;
	}
	poly_clear(neg, s->ctx);
	ways_clear(s, &one);
	ways_clear(s, &next);
	*out = acc;
	return ret;
}

/* The ways where condition E holds (POS) and where it does not (NEG),
 * read through De Morgan's laws (E: &&, ||, !, comparisons of integers
 * affine in what cond_fixed() allows, a != b the ways a < b and a > b);
 * returns 0, or -1 (both empty) when E is none, or has too many ways. */
static int cond_ways(W *w, CXCursor e, ways *pos, ways *neg)
{
	sym_ctx *s = w->s;
	pos->n = neg->n = 0;
	e = strip(e);
	enum CXCursorKind k = kind(e);
	kids kk = {0};
	kids_of(e, &kk);
	int ret = -1;
	if (k == CXCursor_UnaryOperator && kk.n == 1 && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot) {
		ret = cond_ways(w, kk.c[0], neg, pos);
	} else if (k == CXCursor_BinaryOperator && kk.n == 2) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
			/* a && b: a and b, or not a, or a and not b; a || b the
			 * same with the roles of holding and failing swapped */
			int and = op == CXBinaryOperator_LAnd;
			ways *t = xcalloc(5, sizeof *t), *pa = &t[0], *na = &t[1], *pb = &t[2], *nb = &t[3], *x = &t[4];
			if (cond_ways(w, kk.c[0], pa, na) == 0 && cond_ways(w, kk.c[1], pb, nb) == 0) {
				ways *both = and ? pos : neg, *either = and ? neg : pos;
				ways *a1 = and ? pa : na, *b1 = and ? pb : nb; /* the ways both must go */
				ways *a2 = and ? na : pa, *b2 = and ? nb : pb; /* and the other */
				ret = ways_and(s, both, a1, b1);
				for (int i = 0; i < a2->n && ret == 0; i++)
					ret = way_add(s, either, a2->c[i], a2->nc[i], NULL, 0);
				if (ret == 0)
					ret = ways_and(s, x, a1, b2);
				for (int i = 0; i < x->n && ret == 0; i++)
					ret = way_add(s, either, x->c[i], x->nc[i], NULL, 0);
			}
			for (int i = 0; i < 5; i++)
				ways_clear(s, &t[i]);
			free(t);
		} else {
			poly_struct c[2];
			int n = 0, eq = 0;
			int ne = op == CXBinaryOperator_NE;
			if (cmp_constraints(w, kk.c[0], kk.c[1], ne ? CXBinaryOperator_EQ : op, c, &n, 2, &eq) == 0) {
				ret = 0;
				for (int i = 0; i < n && ret == 0; i++) /* affine, no quotient of a loop variable */
					if (poly_total_degree_si(&c[i], s->ctx) > 1 || loop_quotient(s, &c[i]))
						ret = -1;
				ways *yes = ne ? neg : pos, *no = ne ? pos : neg; /* a != b: where a == b fails */
				if (ret == 0)
					ret = way_add(s, yes, c, n, NULL, 0);
				if (ret == 0)
					ret = ways_not(s, no, yes);
			}
			for (int i = 0; i < n; i++)
				poly_clear(&c[i], s->ctx);
		}
	}
	kids_free(&kk);
	if (ret < 0) {
		ways_clear(s, pos);
		ways_clear(s, neg);
	}
	return ret;
}

/* Adds to OUT the counts X where one of the ways A holds (X left as it
 * was). */
static void add_ways(sym_ctx *s, epi_counts *out, const epi_counts *x, const ways *a)
{
	for (int k = 0; k < a->n; k++) {
		epi_counts y;
		counts_init(&y);
		counts_set(s, &y, x);
		for (int i = 0; i < a->nc[k]; i++)
			counts_restrict(s, &y, &a->c[k][i]);
		counts_add(s, out, &y);
		counts_clear(s, &y);
	}
}

/* The ways where COND holds (YES) and where it does not (NO), when COND
 * is affine in the parameters and the variables of the loops being
 * counted (cond_fixed, cond_ways); returns 1, or 0 (none set, what
 * reading it noted taken back). */
static int if_ways(W *w, CXCursor cond, ways *yes, ways *no)
{
	int nnotes = w->a->nnotes;
	yes->n = no->n = 0;
	int ok = w->cur && cond_fixed(w, cond, 1) && cond_ways(w, cond, yes, no) == 0;
	if (!ok) {
		ways_clear(w->s, yes);
		ways_clear(w->s, no);
		/* what reading the condition noted, when it is priced otherwise */
		while (w->a->nnotes > nnotes)
			free(w->a->notes[--w->a->nnotes]);
	}
	return ok;
}

/* An if whose condition is affine in the parameters and the variables of
 * the loops around it (if_ways: a guard, if (n > 0), fixed for the call,
 * or a test of the iteration, if (i < m), if (j != i), if (i == 0 || i ==
 * n - 1)): its branch counted where the condition holds and its else
 * where it does not, exactly, not weighted by the branch probability.
 * Returns 1 with *RET set when it applies, else 0. */
static int affine_if(W *w, CXCursor cond, CXCursor then_c, CXCursor else_c, epi_counts *out, int *ret)
{
	if (dies(w, then_c) || dies(w, else_c))
		return 0;
	/* on the heap: the branches' walks may nest ifs deep */
	ways *t = xmalloc(2 * sizeof *t), *yes = &t[0], *no = &t[1];
	if (!if_ways(w, cond, yes, no)) {
		free(t);
		return 0;
	}
	epi_counts a, b;
	counts_init(&a);
	counts_init(&b);
	CXCursor *sib = w->sib;
	w->sib = NULL; /* a branch that is a single statement has no siblings */
	*ret = stmt(w, then_c, &a);
	if (*ret == 0 && !clang_Cursor_isNull(else_c))
		*ret = stmt(w, else_c, &b);
	w->sib = sib;
	if (*ret == 0) {
		add_ways(w->s, out, &a, yes);
		if (b.n)
			add_ways(w->s, out, &b, no);
	}
	counts_clear(w->s, &a);
	counts_clear(w->s, &b);
	ways_clear(w->s, yes);
	ways_clear(w->s, no);
	free(t);
	return 1;
}

/* ---- guards that return: `if (n <= 0) return;` ----------------------- */

/* The constraint (OUT >= 0, OUT set when it returns 0) where the guard
 * COND, one affine comparison of what the function's loops do not change
 * (as affine_if() counts it), does not hold; -1 when COND is none. */
static int guard_not(W *w, CXCursor cond, poly_struct *out)
{
	enum { MAXC = 2 };
	poly_struct c[MAXC];
	int n = 0, eq = 0, nnotes = w->a->nnotes;
	int ok = w->cur && cond_fixed(w, cond, 0) && cond_constraints(w, cond, c, &n, MAXC, &eq) == 0 && n == 1 &&
		 !eq && poly_total_degree_si(&c[0], w->s->ctx) <= 1;
	if (ok) {
		poly_init(out, w->s->ctx);
		poly_neg(out, &c[0], w->s->ctx);
		poly_sub_si(out, out, 1, w->s->ctx);
	}
	for (int i = 0; i < n; i++)
		poly_clear(&c[i], w->s->ctx);
	/* the if's own count noted what reading it needs */
	while (w->a->nnotes > nnotes)
		free(w->a->notes[--w->a->nnotes]);
	return ok ? 0 : -1;
}

/* The constraints (each >= 0, from *N on, at most MAX) where none of the
 * guards COND joins with || holds (guard_not() each: if (!p || n <= 0)
 * gives n >= 1, what p is left unsaid); returns 0, or -1 (none set) when
 * none is such a guard. */
static int guard_nots(W *w, CXCursor cond, poly_struct *out, int *n, int max)
{
	CXCursor e = strip(cond);
	int n0 = *n, ret = -1;
	if (kind(e) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(e) == CXBinaryOperator_LOr) {
		kids kk = {0};
		kids_of(e, &kk);
		for (int i = 0; i < kk.n && kk.n == 2; i++)
			if (guard_nots(w, kk.c[i], out, n, max) == 0)
				ret = 0;
		kids_free(&kk);
	} else if (*n < max && guard_not(w, e, &out[*n]) == 0) {
		(*n)++;
		ret = 0;
	}
	if (ret < 0)
		while (*n > n0)
			poly_clear(&out[--*n], w->s->ctx);
	return ret;
}

static enum CXChildVisitResult goto_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	enum CXCursorKind k = kind(c);
	if (k != CXCursor_GotoStmt && k != CXCursor_IndirectGotoStmt)
		return CXChildVisit_Recurse;
	*(int *)data = 1;
	return CXChildVisit_Break;
}

/* Whether the statement C ends in a return whichever way it goes (a goto
 * in it is not looked into: the caller refuses those). */
static int ends_in_return(CXCursor c)
{
	c = attributed(c);
	kids kk = {0};
	int yes = 0;
	switch (kind(c)) {
	case CXCursor_ReturnStmt:
		yes = 1;
		break;
	case CXCursor_CompoundStmt: /* a statement of it that returns: nothing after runs */
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && !yes; i++)
			yes = ends_in_return(kk.c[i]);
		break;
	case CXCursor_IfStmt:
		kids_of(c, &kk);
		yes = kk.n == 3 && ends_in_return(kk.c[1]) && ends_in_return(kk.c[2]);
		break;
	default:
		break;
	}
	kids_free(&kk);
	return yes;
}

enum { MAXGUARDC = 8 }; /* a guard's comparisons joined by || */

/* Whether C, a statement of the function's body, is a guard that returns
 * (`if (n <= 0) return;`, `if (n < 1 || m < 1) return;`: no else, its
 * branch always returns, and no goto in it), of comparisons affine in
 * what the loops do not change; its condition into *COND. The statements
 * after it run only where the condition does not hold. */
static int return_guard(W *w, CXCursor c, CXCursor *cond)
{
	if (kind(c) != CXCursor_IfStmt)
		return 0;
	kids kk = {0};
	kids_of(c, &kk);
	int jumps = 0;
	if (kk.n == 2)
		clang_visitChildren(kk.c[1], goto_visit, &jumps);
	int yes = kk.n == 2 && !jumps && ends_in_return(kk.c[1]) && !dies(w, kk.c[1]);
	poly_struct t[MAXGUARDC];
	int nt = 0;
	if (yes && guard_nots(w, kk.c[0], t, &nt, MAXGUARDC) == 0) {
		while (nt > 0)
			poly_clear(&t[--nt], w->s->ctx);
		*cond = kk.c[0];
	} else {
		yes = 0;
	}
	kids_free(&kk);
	return yes;
}

static int if_ways(W *w, CXCursor cond, ways *yes, ways *no);
static void add_ways(sym_ctx *s, epi_counts *out, const epi_counts *x, const ways *a);

/* The right operand R of L && R (AND) or L || R counted where it runs,
 * exactly, when L is a test an if reads exactly (if_ways): returns 1
 * with *RET set, else 0. */
static int right_operand(W *w, CXCursor l, CXCursor r, int and, epi_counts *out, int *ret)
{
	if (dies(w, r))
		return 0;
	ways *t = xmalloc(2 * sizeof *t);
	if (!if_ways(w, l, &t[0], &t[1])) {
		free(t);
		return 0;
	}
	epi_counts x;
	counts_init(&x);
	CXCursor *sib = w->sib;
	w->sib = NULL;
	*ret = rval(w, r, &x);
	w->sib = sib;
	if (*ret == 0)
		add_ways(w->s, out, &x, and ? &t[0] : &t[1]);
	counts_clear(w->s, &x);
	ways_clear(w->s, &t[0]);
	ways_clear(w->s, &t[1]);
	free(t);
	return 1;
}

static int branch(W *w, CXCursor then_c, CXCursor else_c, epi_counts *out, int as_stmt)
{
	epi_counts a, b;
	counts_init(&a);
	counts_init(&b);
	int ret = 0;
	CXCursor *sib = w->sib;
	w->sib = NULL; /* a branch that is a single statement has no siblings */
	if (!clang_Cursor_isNull(then_c))
		ret = as_stmt ? stmt(w, then_c, &a) : rval(w, then_c, &a);
	if (ret == 0 && !clang_Cursor_isNull(else_c))
		ret = as_stmt ? stmt(w, else_c, &b) : rval(w, else_c, &b);
	w->sib = sib;
	if (ret == 0) {
		/* a way that ends the program is not taken in a run that
		 * completes (the one predicted and profiled): its work counts
		 * in the maximum alone */
		int da = dies(w, then_c), db = dies(w, else_c);
		fmpq_t p;
		fmpq_init(p);
		if (da != db)
			fmpq_set_si(p, db, 1);
		else
			fmpq_set(p, w->o->branch_prob);
		counts_branch(w->s, out, &a, &b, p);
		fmpq_clear(p);
	}
	counts_clear(w->s, &a);
	counts_clear(w->s, &b);
	return ret;
}

static int rval(W *w, CXCursor c, epi_counts *out)
{
	c = strip(c);
	enum CXCursorKind k = kind(c);
	kids kk = {0};
	int ret = 0;
	switch (k) {
	case CXCursor_DeclRefExpr:
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_StringLiteral:
	case CXCursor_UnaryExpr: /* sizeof, _Alignof: not evaluated */
		break;
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_MemberRefExpr:
		ret = lval(w, c, RD, out);
		break;
	case CXCursor_UnaryOperator: {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
		kids_of(c, &kk);
		if (kk.n != 1)
			break;
		switch (op) {
		case CXUnaryOperator_Deref:
			ret = lval(w, c, RD, out);
			break;
		case CXUnaryOperator_AddrOf:
			ret = lval(w, kk.c[0], ADDR, out);
			break;
		case CXUnaryOperator_PostInc: case CXUnaryOperator_PostDec:
		case CXUnaryOperator_PreInc: case CXUnaryOperator_PreDec:
			add_op(w, out, EPI_OP_ADD, clang_getCursorType(c));
			ret = lval(w, kk.c[0], RW, out);
			break;
		case CXUnaryOperator_Not:
			add_op(w, out, EPI_OP_BIT, clang_getCursorType(c));
			ret = rval(w, kk.c[0], out);
			break;
		default:
			ret = rval(w, kk.c[0], out);
		}
		break;
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator: {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
		kids_of(c, &kk);
		if (kk.n != 2)
			break;
		CXCursor l = kk.c[0], r = kk.c[1];
		enum epi_op cls = EPI_OP_COUNT;
		switch (op) {
		case CXBinaryOperator_Mul: case CXBinaryOperator_MulAssign: cls = EPI_OP_MUL; break;
		case CXBinaryOperator_Div: case CXBinaryOperator_Rem:
		case CXBinaryOperator_DivAssign: case CXBinaryOperator_RemAssign: cls = EPI_OP_DIV; break;
		case CXBinaryOperator_Add: case CXBinaryOperator_Sub:
		case CXBinaryOperator_AddAssign: case CXBinaryOperator_SubAssign: cls = EPI_OP_ADD; break;
		case CXBinaryOperator_Shl: case CXBinaryOperator_Shr: case CXBinaryOperator_And:
		case CXBinaryOperator_Xor: case CXBinaryOperator_Or: case CXBinaryOperator_ShlAssign:
		case CXBinaryOperator_ShrAssign: case CXBinaryOperator_AndAssign:
		case CXBinaryOperator_XorAssign: case CXBinaryOperator_OrAssign: cls = EPI_OP_BIT; break;
		case CXBinaryOperator_LT: case CXBinaryOperator_GT: case CXBinaryOperator_LE:
		case CXBinaryOperator_GE: case CXBinaryOperator_EQ: case CXBinaryOperator_NE: cls = EPI_OP_CMP; break;
		default: break;
		}
		if (op == CXBinaryOperator_Assign) {
			ret = rval(w, r, out);
			if (ret == 0)
				ret = lval(w, l, WR, out);
		} else if (op >= CXBinaryOperator_MulAssign && op <= CXBinaryOperator_OrAssign) {
			ret = rval(w, r, out);
			arith_op(w, out, cls, clang_getCursorType(l), l, r);
			if (ret == 0)
				ret = lval(w, l, RW, out);
		} else if (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr) {
			/* the right operand runs only sometimes: where the left
			 * holds (&&) or fails (||), when an if could read it */
			ret = rval(w, l, out);
			if (ret == 0 && !right_operand(w, l, r, op == CXBinaryOperator_LAnd, out, &ret))
				ret = branch(w, r, clang_getNullCursor(), out, 0);
		} else if (cls == EPI_OP_CMP) {
			arith_op(w, out, cls, clang_getCursorType(l), l, r);
			ret = rval(w, l, out);
			if (ret == 0)
				ret = rval(w, r, out);
		} else {
			if (cls != EPI_OP_COUNT)
				arith_op(w, out, cls, clang_getCursorType(c), l, r);
			ret = rval(w, l, out);
			if (ret == 0)
				ret = rval(w, r, out);
		}
		break;
	}
	case CXCursor_ConditionalOperator:
		kids_of(c, &kk);
		if (kk.n == 3) {
			ret = rval(w, kk.c[0], out);
			if (ret == 0)
				ret = branch(w, kk.c[1], kk.c[2], out, 0);
		}
		break;
	case CXCursor_CallExpr:
		ret = call(w, c, out);
		break;
	case CXCursor_GenericSelectionExpr: {
		/* _Generic(x, T1: e1, ...): the association chosen alone, the
		 * one of the selection's type (x is not evaluated) */
		kids_of(c, &kk);
		CXType t = clang_getCanonicalType(clang_getCursorType(c));
		for (int i = 1; i < kk.n; i++)
			if (clang_isExpression(kind(kk.c[i])) &&
			    clang_equalTypes(clang_getCanonicalType(clang_getCursorType(kk.c[i])), t)) {
				ret = rval(w, kk.c[i], out);
				break;
			}
		break;
	}
	case CXCursor_StmtExpr: /* GNU's ({ ...; value; }): its statements */
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && ret == 0; i++)
			ret = clang_isExpression(kind(kk.c[i])) ? rval(w, kk.c[i], out) : stmt(w, kk.c[i], out);
		break;
	default: {
		/* init lists, compound literals, ...: their parts */
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && ret == 0; i++)
			if (clang_isExpression(kind(kk.c[i])))
				ret = rval(w, kk.c[i], out);
		char *at = k == CXCursor_UnexposedExpr ? atomic_op(w, c) : NULL;
		if (at) { /* a locked read-modify-write, or an ordered access */
			char key[160];
			snprintf(key, sizeof key, "call:%s", at);
			count_si(w, out, key, 1);
			free(at);
		}
	}
	}
	kids_free(&kk);
	return ret;
}

/* ---- loops -------------------------------------------------------------- */

typedef struct loop {
	CXCursor decl;      /* the induction variable */
	poly_t L, B;  /* first value, bound */
	long step;
	enum CXBinaryOperatorKind rel; /* var REL B */
	CXCursor bound;     /* the expression B */
	int pre_step;       /* the condition updates var (while (n--)): the body sees var + step */
	/* a geometric update, var = var GOP GFAC (* / << >>), and the values
	 * it takes (its first value and bound being constants), when not NULL */
	enum CXBinaryOperatorKind gop;
	long gfac;
	long *vals;
	int nvals;
	/* `var REL B && T && ...`: the other tests T, which can end it early */
	int nextra;
	CXCursor extra[4];
	CXCursor offset;    /* `var + e REL B`: e, which counts into B as - e */
	CXCursor vstep;     /* `var += e` with e no constant (loop_step fails): e */
	CXCursor bound2;    /* a second bound's expression (`var < n && var < m`: m), or null */
	CXCursor brk;       /* `if (var >= e) break;` of the body (break_bound), or null */
	int brk_kind;       /* BRK_FROM, BRK_AT, BRK_FIRST */
	poly_t F;           /* the first value that breaks, or BRK_FIRST's condition */
	int scoped;         /* declared by the for's init: no code after it sees it */
	/* a bound that is the lesser (ALT 1) or the greater (ALT -1) of B and
	 * B2, as MIN() and MAX() macros write it, and a first value so of L
	 * and L2 (ALT_L): counted on each side */
	int alt, alt_l;
	poly_t B2, L2;
} loop;

static int loop_cond1(W *w, CXCursor cond, loop *l);

/* The operands of a chain of the operator OP (&&, or a comma) in E, in
 * order (E itself when it is none), appended to K. */
static void op_parts(CXCursor e, enum CXBinaryOperatorKind op, kids *k)
{
	CXCursor s = strip(e);
	if (kind(s) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(s) == op) {
		kids kk = {0};
		kids_of(s, &kk);
		for (int i = 0; i < kk.n; i++)
			op_parts(kk.c[i], op, k);
		kids_free(&kk);
		return;
	}
	kid_visit(e, e, k);
}

/* Recognises `var REL B` (or `B REL var`) with var the declaration D when
 * D is not null, else any variable; sets l->decl, l->rel and l->B.  In a
 * chain `T1 && T2 && ...`, the first test of that form is the bound and
 * the others (at most 4) go to l->extra. */
static void loop_init(W *w, loop *l);
static void loop_clear(W *w, loop *l);

/* `var < a && var < b`: when COND bounds l->decl on the side l->rel does
 * (another upper bound of an ascending test, lower of a descending one),
 * it is l->B2, the bound the lesser (greater) of the two; returns 0, or
 * -1 when COND is some other test. */
static int second_bound(W *w, CXCursor cond, loop *l)
{
	loop m;
	loop_init(w, &m);
	m.decl = l->decl;
	int ret = -1;
	enum CXBinaryOperatorKind a = l->rel, b;
	int up = a == CXBinaryOperator_LT || a == CXBinaryOperator_LE;
	int down = a == CXBinaryOperator_GT || a == CXBinaryOperator_GE;
	if ((up || down) && !w->nvary && loop_cond1(w, cond, &m) == 0 && !m.alt) { /* w->nvary: see minmax */
		b = m.rel;
		int up2 = b == CXBinaryOperator_LT || b == CXBinaryOperator_LE;
		int down2 = b == CXBinaryOperator_GT || b == CXBinaryOperator_GE;
		if ((up && up2) || (down && down2)) {
			/* as l->rel reads it: var < b + 1 is var <= b, var > b - 1 is var >= b */
			int strict = a == CXBinaryOperator_LT || a == CXBinaryOperator_GT;
			int strict2 = b == CXBinaryOperator_LT || b == CXBinaryOperator_GT;
			poly_set(l->B2, m.B, w->s->ctx);
			if (strict && !strict2)
				poly_add_si(l->B2, l->B2, up ? 1 : -1, w->s->ctx);
			else if (!strict && strict2)
				poly_add_si(l->B2, l->B2, up ? -1 : 1, w->s->ctx);
			l->alt = up ? 1 : -1;
			l->bound2 = m.bound;
			ret = 0;
		}
	}
	loop_clear(w, &m);
	return ret;
}

static int loop_cond(W *w, CXCursor cond, loop *l)
{
	l->nextra = 0;
	cond = strip(cond);
	if (kind(cond) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(cond) != CXBinaryOperator_LAnd)
		return loop_cond1(w, cond, l);
	kids parts = {0};
	op_parts(cond, CXBinaryOperator_LAnd, &parts);
	int ret = -1;
	if (parts.n <= 5) {
		int b = -1, b2 = -1;
		for (int i = 0; i < parts.n && b < 0; i++)
			if (loop_cond1(w, parts.c[i], l) == 0)
				b = i;
		for (int i = 0; i < parts.n && b >= 0 && b2 < 0 && !l->alt; i++)
			if (i != b && second_bound(w, parts.c[i], l) == 0)
				b2 = i;
		for (int i = 0; i < parts.n && b >= 0; i++)
			if (i != b && i != b2)
				l->extra[l->nextra++] = parts.c[i];
		ret = b >= 0 ? 0 : -1;
	}
	kids_free(&parts);
	return ret;
}

static int same_expr(CXCursor a, CXCursor b);

/* S, or the one statement of S a block: a null cursor for a block of
 * another number. */
static CXCursor only_stmt(CXCursor s)
{
	if (clang_Cursor_isNull(s) || kind(s) != CXCursor_CompoundStmt)
		return s;
	kids k = {0};
	kids_of(s, &k);
	CXCursor x = k.n == 1 ? k.c[0] : clang_getNullCursor();
	kids_free(&k);
	return x;
}

/* The expression the return statement R returns, or a null cursor. */
static CXCursor returned(CXCursor r)
{
	CXCursor x = clang_getNullCursor();
	if (kind(r) != CXCursor_ReturnStmt)
		return x;
	kids k = {0};
	kids_of(r, &k);
	if (k.n == 1)
		x = k.c[0];
	kids_free(&k);
	return x;
}

/* What `test ? x : y` yields of the two values TEST compares: the lesser
 * (1: u < v ? u : v, u > v ? v : u, <= and >= alike), the greater (-1),
 * or 0 when it is no such choice (TEST no comparison, or X and Y not its
 * two operands, compared by same_expr()). */
static int choice_by(CXCursor test, CXCursor x, CXCursor y)
{
	test = strip(test);
	if (clang_Cursor_isNull(test) || kind(test) != CXCursor_BinaryOperator || clang_Cursor_isNull(x) ||
	    clang_Cursor_isNull(y))
		return 0;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(test);
	int lt = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE;
	int gt = op == CXBinaryOperator_GT || op == CXBinaryOperator_GE;
	kids tk = {0};
	kids_of(test, &tk);
	int ret = 0;
	if (tk.n == 2 && (lt || gt)) {
		int first = same_expr(x, tk.c[0]) && same_expr(y, tk.c[1]); /* yields u when the test holds */
		int second = same_expr(x, tk.c[1]) && same_expr(y, tk.c[0]);
		if (first || second)
			ret = lt == first ? 1 : -1;
	}
	kids_free(&tk);
	return ret;
}

/* Whether X and Y are the parameters P0 and P1, either way. */
static int params_pair(CXCursor x, CXCursor y, CXCursor p0, CXCursor p1)
{
	return (same_decl(x, p0) && same_decl(y, p1)) || (same_decl(x, p1) && same_decl(y, p0));
}

/* What the function F returns of its two parameters: the lesser (1), the
 * greater (-1), or 0: `return a < b ? a : b;`, or `if (a < b) return a;
 * [else] return b;`, with any comparison. */
static int minmax_fn(const fn *f)
{
	kids fk = {0}, bk = {0}, k = {0};
	kids_of(f->cur, &fk);
	CXCursor p[2];
	int np = 0, ret = 0;
	CXCursor body = clang_getNullCursor();
	for (int i = 0; i < fk.n; i++)
		if (kind(fk.c[i]) == CXCursor_ParmDecl && np < 2)
			p[np++] = fk.c[i];
		else if (kind(fk.c[i]) == CXCursor_CompoundStmt)
			body = fk.c[i];
	if (np == 2 && f->nparams == 2 && !clang_Cursor_isNull(body))
		kids_of(body, &bk);
	CXCursor e = bk.n == 1 ? strip(returned(bk.c[0])) : clang_getNullCursor();
	if (!clang_Cursor_isNull(e) && kind(e) == CXCursor_ConditionalOperator) { /* return a < b ? a : b; */
		kids_of(e, &k);
		if (k.n == 3 && params_pair(k.c[1], k.c[2], p[0], p[1]))
			ret = choice_by(k.c[0], k.c[1], k.c[2]);
	} else if (bk.n >= 1 && bk.n <= 2 && kind(bk.c[0]) == CXCursor_IfStmt) { /* if (a < b) return a; return b; */
		kids_of(bk.c[0], &k);
		CXCursor then = k.n >= 2 ? k.c[1] : clang_getNullCursor();
		CXCursor other = k.n == 3 && bk.n == 1 ? k.c[2] : k.n == 2 && bk.n == 2 ? bk.c[1] : clang_getNullCursor();
		CXCursor x = returned(only_stmt(then)), y = returned(only_stmt(other));
		if (k.n >= 2 && params_pair(x, y, p[0], p[1]))
			ret = choice_by(k.c[0], x, y);
	}
	kids_free(&fk);
	kids_free(&bk);
	kids_free(&k);
	return ret;
}

/* Where E calls a function of the file that returns the lesser (1) or the
 * greater (-1) of its two arguments (minmax_fn), that and the arguments
 * into *A and *B; else 0. A function whose body the thread did not parse
 * sends the walk to the whole file (w->missing). */
static int minmax_call(W *w, CXCursor e, CXCursor *a, CXCursor *b)
{
	e = strip(e);
	if (kind(e) != CXCursor_CallExpr || clang_Cursor_getNumArguments(e) != 2)
		return 0;
	CXCursor callee = clang_getCursorReferenced(e);
	if (clang_Cursor_isNull(callee) || kind(callee) != CXCursor_FunctionDecl)
		return 0;
	CXString sp = clang_getCursorSpelling(callee);
	fn *f = find_fn(w, clang_getCString(sp));
	clang_disposeString(sp);
	if (!f)
		return 0;
	if (f->blank) {
		w->missing = 1;
		return 0;
	}
	int alt = minmax_fn(f);
	if (alt) {
		*a = clang_Cursor_getArgument(e, 0);
		*b = clang_Cursor_getArgument(e, 1);
	}
	return alt;
}

/* Reads E, `a < b ? a : b` and the like (a MIN() or MAX() macro), into
 * A, B and *ALT (1: the lesser, -1: the greater); returns 0, or -1 when E
 * is no such choice between two affine values. */
static int minmax(W *w, CXCursor e, poly_t A, poly_t B, int *alt)
{
	e = strip(e);
	/* inside a loop counted by a trip count, the variables around are
	 * no loop variables to sum: where the two bounds cross is unknown */
	if (w->nvary)
		return -1;
	CXCursor ca, cb;
	int calt = minmax_call(w, e, &ca, &cb);
	if (calt) { /* min(a, b), a function of the file's */
		if (expr_poly(w, ca, A) < 0 || expr_poly(w, cb, B) < 0)
			return -1;
		*alt = calt;
		return 0;
	}
	if (kind(e) != CXCursor_ConditionalOperator)
		return -1;
	kids kk = {0}, ck = {0};
	kids_of(e, &kk);
	int ret = -1;
	CXCursor test = kk.n == 3 ? strip(kk.c[0]) : clang_getNullCursor();
	if (!clang_Cursor_isNull(test) && kind(test) == CXCursor_BinaryOperator)
		kids_of(test, &ck);
	enum CXBinaryOperatorKind op = ck.n == 2 ? clang_getCursorBinaryOperatorKind(test) : CXBinaryOperator_Invalid;
	int less = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE;
	if (less || op == CXBinaryOperator_GT || op == CXBinaryOperator_GE) {
		sym_ctx *s = w->s;
		poly_t p, q, t, f;
		poly_init(p, s->ctx);
		poly_init(q, s->ctx);
		poly_init(t, s->ctx);
		poly_init(f, s->ctx);
		if (expr_poly(w, ck.c[0], p) == 0 && expr_poly(w, ck.c[1], q) == 0 && expr_poly(w, kk.c[1], t) == 0 &&
		    expr_poly(w, kk.c[2], f) == 0) {
			/* p < q ? p : q is the lesser, p < q ? q : p the greater */
			int same = poly_equal(t, p, s->ctx) && poly_equal(f, q, s->ctx);
			int swapped = poly_equal(t, q, s->ctx) && poly_equal(f, p, s->ctx);
			if (same || swapped) {
				poly_set(A, p, s->ctx);
				poly_set(B, q, s->ctx);
				*alt = same == less ? 1 : -1;
				ret = 0;
			}
		}
		poly_clear(p, s->ctx);
		poly_clear(q, s->ctx);
		poly_clear(t, s->ctx);
		poly_clear(f, s->ctx);
	}
	kids_free(&ck);
	kids_free(&kk);
	return ret;
}

static int loop_cond1(W *w, CXCursor cond, loop *l)
{
	cond = strip(cond);
	if (kind(cond) != CXCursor_BinaryOperator)
		return -1;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
	if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE || op == CXBinaryOperator_EQ)
		return -1;
	kids kk = {0};
	kids_of(cond, &kk);
	int ret = -1;
	if (kk.n == 2) {
		for (int side = 0; side < 2 && ret < 0; side++) {
			CXCursor d = named_decl(kk.c[side]);
			/* var + e or var - e (e + var): the bound is B - e (B + e) */
			CXCursor off = clang_getNullCursor();
			int off_sign = 0;
			CXCursor sx = strip(kk.c[side]);
			if (clang_Cursor_isNull(d) && kind(sx) == CXCursor_BinaryOperator) {
				enum CXBinaryOperatorKind so = clang_getCursorBinaryOperatorKind(sx);
				kids ok = {0};
				kids_of(sx, &ok);
				if (ok.n == 2 && (so == CXBinaryOperator_Add || so == CXBinaryOperator_Sub)) {
					CXCursor v0 = named_decl(ok.c[0]), v1 = named_decl(ok.c[1]);
					if (!clang_Cursor_isNull(v0) && (clang_Cursor_isNull(l->decl) || clang_equalCursors(v0, l->decl))) {
						d = v0;
						off = ok.c[1];
						off_sign = so == CXBinaryOperator_Add ? 1 : -1;
					} else if (so == CXBinaryOperator_Add && !clang_Cursor_isNull(v1) &&
						   (clang_Cursor_isNull(l->decl) || clang_equalCursors(v1, l->decl))) {
						d = v1;
						off = ok.c[0];
						off_sign = 1;
					}
				}
				kids_free(&ok);
			}
			if (clang_Cursor_isNull(d) || (!clang_Cursor_isNull(l->decl) && !clang_equalCursors(d, l->decl)))
				continue;
			if (clang_Cursor_isNull(l->decl) && loop_var_of(w, d) >= 0)
				continue;
			CXType t = clang_getCanonicalType(clang_getCursorType(d));
			if (!(t.kind >= CXType_Bool && t.kind <= CXType_Int128) && t.kind != CXType_Enum &&
			    t.kind != CXType_Pointer)
				continue;
			refs r = {0};
			refs_of(kk.c[1 - side], &r);
			if (off_sign)
				refs_of(off, &r);
			int self = 0;
			for (int i = 0; i < r.n; i++)
				self |= clang_equalCursors(r.d[i], d);
			l->alt = 0;
			if (self || (bound_poly(w, kk.c[1 - side], l->B) < 0 &&
				     minmax(w, kk.c[1 - side], l->B, l->B2, &l->alt) < 0))
				continue;
			if (off_sign) {
				poly_t e;
				poly_init(e, w->s->ctx);
				int bad = expr_poly(w, off, e) < 0;
				if (!bad && off_sign > 0) {
					poly_sub(l->B, l->B, e, w->s->ctx);
					poly_sub(l->B2, l->B2, e, w->s->ctx);
				} else if (!bad) {
					poly_add(l->B, l->B, e, w->s->ctx);
					poly_add(l->B2, l->B2, e, w->s->ctx);
				}
				poly_clear(e, w->s->ctx);
				if (bad)
					continue;
			}
			l->offset = off;
			l->decl = d;
			l->rel = op;
			l->bound = kk.c[1 - side];
			if (side == 1) { /* B REL var: flip */
				static const enum CXBinaryOperatorKind flip[] = {
					[CXBinaryOperator_LT] = CXBinaryOperator_GT, [CXBinaryOperator_GT] = CXBinaryOperator_LT,
					[CXBinaryOperator_LE] = CXBinaryOperator_GE, [CXBinaryOperator_GE] = CXBinaryOperator_LE,
					[CXBinaryOperator_NE] = CXBinaryOperator_NE};
				l->rel = flip[op];
			}
			ret = 0;
		}
	}
	kids_free(&kk);
	return ret;
}

/* Recognises an update of l->decl by a constant: ++, --, +=, -=, var = var +- c. */
static int loop_step(W *w, CXCursor inc, loop *l)
{
	inc = strip(inc);
	kids kk = {0};
	kids_of(inc, &kk);
	int ret = -1;
	poly_t c;
	poly_init(c, w->s->ctx);
	enum CXCursorKind k = kind(inc);
	if (k == CXCursor_UnaryOperator && kk.n == 1 && same_decl(kk.c[0], l->decl)) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc) {
			l->step = 1;
			ret = 0;
		} else if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec) {
			l->step = -1;
			ret = 0;
		}
	} else if ((k == CXCursor_CompoundAssignOperator || k == CXCursor_BinaryOperator) && kk.n == 2 &&
		   same_decl(kk.c[0], l->decl)) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc);
		long sign = 0;
		CXCursor amount = kk.c[1];
		if (op == CXBinaryOperator_AddAssign) {
			sign = 1;
		} else if (op == CXBinaryOperator_SubAssign) {
			sign = -1;
		} else if (op == CXBinaryOperator_Assign) {
			CXCursor r = strip(kk.c[1]);
			kids rk = {0};
			kids_of(r, &rk);
			if (kind(r) == CXCursor_BinaryOperator && rk.n == 2) {
				enum CXBinaryOperatorKind rop = clang_getCursorBinaryOperatorKind(r);
				if (same_decl(rk.c[0], l->decl) && (rop == CXBinaryOperator_Add || rop == CXBinaryOperator_Sub)) {
					sign = rop == CXBinaryOperator_Add ? 1 : -1;
					amount = rk.c[1];
				} else if (same_decl(rk.c[1], l->decl) && rop == CXBinaryOperator_Add) {
					sign = 1;
					amount = rk.c[0];
				}
			}
			kids_free(&rk);
		}
		if (sign && expr_poly(w, amount, c) == 0 && poly_is_fmpq(c, w->s->ctx)) {
			fmpq_t q;
			fmpq_init(q);
			poly_get_fmpq(q, c, w->s->ctx);
			if (fmpz_is_one(fmpq_denref(q)) && fmpz_fits_si(fmpq_numref(q)) && !fmpq_is_zero(q)) {
				l->step = sign * fmpz_get_si(fmpq_numref(q));
				ret = 0;
			}
			fmpq_clear(q);
		}
		if (sign && ret < 0)
			l->vstep = amount;
	}
	poly_clear(c, w->s->ctx);
	kids_free(&kk);
	return ret;
}

/* The body of the loop statement C. */
static CXCursor loop_body(CXCursor c)
{
	kids kk = {0};
	kids_of(c, &kk);
	CXCursor b = kk.n == 0 ? clang_getNullCursor() : kind(c) == CXCursor_DoStmt ? kk.c[0] : kk.c[kk.n - 1];
	kids_free(&kk);
	return b;
}

/* "94", or "94_2" for the second loop on line 94. */
void cf_loop_label(char *buf, size_t n, int line, int nth)
{
	if (nth > 1)
		snprintf(buf, n, "%d_%d", line, nth);
	else
		snprintf(buf, n, "%d", line);
}

static int trip_file_matches(W *w, const epi_trip *t)
{
	return !t->file || epi_trip_file_matches(t->file, w->filename);
}

/* The --trip (or, MEASURED, the measured trip) for the loop AT, the NTH on
 * its line (computed into *NTH when 0 and needed), or NULL. */
static const epi_trip *find_trip(W *w, CXCursor at, int measured, int *nth)
{
	int line = line_of(at);
	const epi_trip *found = NULL;
	if (w->foreign)
		return NULL; /* they name the main file's loops */
	for (int i = 0; i < w->o->ntrips; i++) {
		const epi_trip *t = &w->o->trips[i];
		if (t->line != line || !t->measured != !measured || !trip_file_matches(w, t))
			continue;
		if (!*nth)
			*nth = w->cur ? loop_nth(w->cur->cur, at) : 1;
		if ((t->nth > 1 ? t->nth : 1) != *nth)
			continue;
		found = t; /* the last one given wins */
		if (w->trip_hit)
			__atomic_store_n(&w->trip_hit[i], 1, __ATOMIC_RELAXED);
	}
	return found;
}

/* The pragma for the loop AT (an `epi trip` one when EXPR, else a
 * loopbound), or NULL. */
static const pragma *find_pragma(W *w, CXCursor at, int expr)
{
	int line = line_of(at);
	if (w->foreign)
		return NULL;
	for (int i = 0; i < w->npragmas; i++) {
		pragma *p = &w->pragmas[i];
		if (p->line == line && !p->expr == !expr) {
			__atomic_store_n(&p->hit, 1, __ATOMIC_RELAXED);
			return p;
		}
	}
	return NULL;
}

/* Reads the trip count EXPR of the loop AT into T: every name (n, or a
 * member access such as v->n) is a parameter.  Returns 1, or -1 with the
 * error set. */
static int trip_poly(W *w, CXCursor at, const char *expr, poly_t T)
{
	/* names are replaced by placeholders x<index> that FLINT's parser reads */
	sym_ctx *s = w->s;
	size_t cap = 2 * strlen(expr) + 16, len = 0;
	char *text = xmalloc(cap);
	text[0] = 0;
	int ret = 1;
	for (const char *p = expr; *p && ret == 1;) {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *q = p;
			for (;;) {
				while (isalnum((unsigned char)*q) || *q == '_')
					q++;
				int arrow = q[0] == '-' && q[1] == '>', dot = q[0] == '.';
				const char *r = q + (arrow ? 2 : dot ? 1 : 0);
				if (r == q || !(isalpha((unsigned char)*r) || *r == '_'))
					break;
				q = r;
			}
			char name[128];
			snprintf(name, sizeof name, "%.*s", (int)(q - p), p);
			int v = sym_var(s, name, SYM_PARAM);
			if (v < 0) {
				ret = fail(w, at, "%s", s->err);
				break;
			}
			if (len + 16 >= cap)
				text = xrealloc(text, cap *= 2);
			len += snprintf(text + len, cap - len, "x%d", v);
			p = q;
		} else {
			if (len + 2 >= cap)
				text = xrealloc(text, cap *= 2);
			text[len++] = *p++;
			text[len] = 0;
		}
	}
	if (ret == 1) {
		char pn[SYM_MAXVARS][16];
		const char *names[SYM_MAXVARS];
		for (int k = 0; k < SYM_MAXVARS; k++) {
			snprintf(pn[k], sizeof pn[k], "x%d", k);
			names[k] = pn[k];
		}
		if (poly_set_str_pretty(T, text, names, s->ctx) != 0)
			ret = fail(w, at, "cannot read trip count '%s': use + - * / ^, numbers and parameter names", expr);
	}
	free(text);
	return ret;
}

/* The trip count given for the loop AT by --trip or `#pragma epi trip(EXPR)`;
 * sets T and returns 1, 0 when none, -1 on a bad expression. */
static int given_trip(W *w, CXCursor at, poly_t T)
{
	if (!w->o->ntrips && !w->npragmas)
		return 0;
	int nth = 0;
	const epi_trip *t = find_trip(w, at, 0, &nth);
	const pragma *p = t ? NULL : find_pragma(w, at, 1);
	if (!t && !p)
		return 0;
	int r = trip_poly(w, at, t ? t->expr : p->expr, T);
	if (r == 1)
		note(w, at, "its trip count is given (%s): %s", t ? "--trip" : "#pragma epi trip", t ? t->expr : p->expr);
	return r;
}

/* What the functions that count a loop return when it cannot be counted
 * (besides 0, and -1 for an error): w->why says why. */
#define UNCOUNTED (-2)

/* Records that the loop AT cannot be counted, and why; returns UNCOUNTED,
 * on which the statement's walk counts it with a trip count instead
 * (trip_fallback). */
static int unsupported(W *w, CXCursor at, const char *why)
{
	(void)at;
	snprintf(w->why, sizeof w->why, "%s", why);
	return UNCOUNTED;
}

/* The loop AT is beyond the symbolic engine (s->err says why): reported
 * like any loop that cannot be counted, with the way around it. */
static int too_complex(W *w, CXCursor at)
{
	char why[300];
	snprintf(why, sizeof why, "too complex to count exactly (%s)", w->s->err);
	return unsupported(w, at, why);
}

/* The counts C of one iteration of the loop L (in its variable VAR, and KV
 * for the iteration number) summed over its iterations, var = L + step*k
 * for k = 0..K (from 1 for a do loop, whose first iteration FIRST counts
 * unconditionally), into OUT.  Returns 0 or UNCOUNTED (too complex). */
static int iterate(W *w, CXCursor at, const loop *l, int var, int kv, const poly_t K, int is_do, epi_counts *c,
		   epi_counts *out)
{
	sym_ctx *s = w->s;
	int ret = 0;
	poly_struct *sub[SYM_MAXVARS] = {0};
	epi_counts first;
	counts_init(&first);
	if (is_do) {
		/* the first iteration runs unconditionally */
		counts_set(s, &first, c);
		sub[var] = (poly_struct *)l->L;
		if (counts_compose(s, &first, sub) < 0)
			ret = too_complex(w, at);
	}
	poly_t lo, hi, x;
	poly_init(lo, s->ctx);
	poly_init(hi, s->ctx);
	poly_init(x, s->ctx);
	/* unit steps: sum over var itself, from L up (or down) to L + step*K,
	 * unless the bounds name var (a parameter counted down in place) */
	int direct = (l->step == 1 || l->step == -1) && poly_degree_si(l->L, var, s->ctx) < 1 &&
		     poly_degree_si(K, var, s->ctx) < 1;
	if (ret == 0 && direct) {
		poly_add_si(lo, l->L, is_do ? l->step : 0, s->ctx);
		poly_scalar_mul_si(hi, K, l->step, s->ctx);
		poly_add(hi, hi, l->L, s->ctx);
		if (l->step < 0)
			poly_swap(lo, hi, s->ctx);
		if (counts_sum(s, c, var, lo, hi) < 0)
			ret = too_complex(w, at);
	} else if (ret == 0) {
		/* var = L + step*k, summed over k */
		poly_scalar_mul_si(x, &s->gen[kv], l->step, s->ctx);
		poly_add(x, x, l->L, s->ctx);
		sub[var] = x;
		poly_set_si(lo, is_do ? 1 : 0, s->ctx);
		if (counts_compose(s, c, sub) < 0 || counts_sum(s, c, kv, lo, K) < 0)
			ret = too_complex(w, at);
	}
	if (ret == 0) {
		counts_add(s, out, &first);
		counts_add(s, out, c);
	}
	poly_clear(lo, s->ctx);
	poly_clear(hi, s->ctx);
	poly_clear(x, s->ctx);
	counts_clear(s, &first);
	return ret;
}

/* Recognises an update of l->decl that multiplies, divides or shifts it by
 * a constant (x *= 2, x <<= 1, x = x / 2, x >>= 1): sets l->gop and
 * l->gfac; returns 0 or -1. */
static int loop_step_geo(W *w, CXCursor inc, loop *l)
{
	inc = strip(inc);
	enum CXCursorKind k = kind(inc);
	if (k != CXCursor_CompoundAssignOperator && k != CXCursor_BinaryOperator)
		return -1;
	kids kk = {0};
	kids_of(inc, &kk);
	int ret = -1;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc), g = 0;
	CXCursor amount = clang_getNullCursor();
	if (kk.n == 2 && same_decl(kk.c[0], l->decl)) {
		if (op == CXBinaryOperator_MulAssign || op == CXBinaryOperator_DivAssign || op == CXBinaryOperator_ShlAssign ||
		    op == CXBinaryOperator_ShrAssign) {
			g = op == CXBinaryOperator_MulAssign ? CXBinaryOperator_Mul
			    : op == CXBinaryOperator_DivAssign ? CXBinaryOperator_Div
			    : op == CXBinaryOperator_ShlAssign ? CXBinaryOperator_Shl : CXBinaryOperator_Shr;
			amount = kk.c[1];
		} else if (op == CXBinaryOperator_Assign) {
			CXCursor r = strip(kk.c[1]);
			kids rk = {0};
			kids_of(r, &rk);
			if (kind(r) == CXCursor_BinaryOperator && rk.n == 2 && same_decl(rk.c[0], l->decl)) {
				enum CXBinaryOperatorKind rop = clang_getCursorBinaryOperatorKind(r);
				if (rop == CXBinaryOperator_Mul || rop == CXBinaryOperator_Div || rop == CXBinaryOperator_Shl ||
				    rop == CXBinaryOperator_Shr) {
					g = rop;
					amount = rk.c[1];
				}
			}
			kids_free(&rk);
		}
	}
	poly_t c;
	poly_init(c, w->s->ctx);
	if (g && expr_poly(w, amount, c) == 0 && poly_is_fmpq(c, w->s->ctx)) {
		fmpq_t q;
		fmpq_init(q);
		poly_get_fmpq(q, c, w->s->ctx);
		if (fmpz_is_one(fmpq_denref(q)) && fmpz_fits_si(fmpq_numref(q))) {
			long f = fmpz_get_si(fmpq_numref(q));
			int shift = g == CXBinaryOperator_Shl || g == CXBinaryOperator_Shr;
			if ((shift && f >= 1 && f < 62) || (!shift && f >= 2)) {
				l->gop = g;
				l->gfac = f;
				ret = 0;
			}
		}
		fmpq_clear(q);
	}
	poly_clear(c, w->s->ctx);
	kids_free(&kk);
	return ret;
}

/* The value after V of a loop's geometric update (saturated beyond 2^41). */
static long geo_next(const loop *l, long v)
{
	__int128 r;
	switch (l->gop) {
	case CXBinaryOperator_Mul: r = (__int128)v * l->gfac; break;
	case CXBinaryOperator_Div: r = v / l->gfac; break;
	case CXBinaryOperator_Shl: r = (__int128)v * ((__int128)1 << l->gfac); break;
	default: r = v >> l->gfac; break;
	}
	if (r > ((__int128)1 << 41))
		r = (__int128)1 << 41;
	if (r < -((__int128)1 << 41))
		r = -((__int128)1 << 41);
	return (long)r;
}

/* The values a loop with a geometric update takes, when its first value
 * and its bound are integer constants: into l->vals (at most MAXVALS).
 * Returns 0, or UNCOUNTED with the reason. */
#define MAXVALS 4096
static int geo_values(W *w, CXCursor at, loop *l, int is_do)
{
	sym_ctx *s = w->s;
	if (!poly_is_fmpq(l->L, s->ctx) || !poly_is_fmpq(l->B, s->ctx) || l->alt || l->alt_l)
		return unsupported(w, at, "its variable is multiplied, divided or shifted: the trip count is logarithmic "
					  "in a bound that is not a constant");
	fmpq_t q;
	fmpq_init(q);
	poly_get_fmpq(q, l->L, s->ctx);
	int ok = fmpz_is_one(fmpq_denref(q)) && fmpz_fits_si(fmpq_numref(q));
	long v = ok ? fmpz_get_si(fmpq_numref(q)) : 0;
	poly_get_fmpq(q, l->B, s->ctx);
	ok = ok && fmpz_is_one(fmpq_denref(q)) && fmpz_fits_si(fmpq_numref(q));
	long b = ok ? fmpz_get_si(fmpq_numref(q)) : 0;
	fmpq_clear(q);
	if (!ok || labs(v) > (1L << 40) || labs(b) > (1L << 40))
		return unsupported(w, at, "its variable is multiplied, divided or shifted, from or to a value out of range");
	l->vals = xmalloc(MAXVALS * sizeof *l->vals);
	l->nvals = 0;
	for (;;) {
		int in = l->rel == CXBinaryOperator_LT ? v < b : l->rel == CXBinaryOperator_LE ? v <= b
			 : l->rel == CXBinaryOperator_GT ? v > b : l->rel == CXBinaryOperator_GE ? v >= b : v != b;
		if (!in && !(is_do && l->nvals == 0)) /* a do loop's first iteration runs anyway */
			return 0;
		long next = geo_next(l, v);
		if (l->nvals == MAXVALS || next == v || labs(next) > (1L << 40))
			return unsupported(w, at, "its variable is multiplied, divided or shifted and does not reach its "
						  "bound within 4096 iterations");
		l->vals[l->nvals++] = v;
		v = next;
	}
}

/* Records V as the value of the variable DECL after the loop AT. */
static void set_final(W *w, CXCursor at, CXCursor decl, const poly_t v)
{
	int i = 0;
	while (i < w->nfin && !(same_place(w->fin[i].loop, at) && clang_equalCursors(w->fin[i].decl, decl)))
		i++;
	if (i == w->nfin) {
		w->fin = xrealloc(w->fin, (size_t)(w->nfin + 1) * sizeof *w->fin);
		w->fin[w->nfin++] = (struct final){.loop = at, .decl = decl};
		counts_init(&w->fin[i].v);
	}
	counts_clear(w->s, &w->fin[i].v);
	counts_add_poly(w->s, &w->fin[i].v, "v", v);
}

/* One more loop around the code being counted: AT, its statement. */
static void enter_loop(W *w, CXCursor at)
{
	if (w->loopdepth < MAXDEPTH)
		w->loopstmt[w->loopdepth] = at;
	w->loopdepth++;
}

/* The value of DECL after the loop AT into V, when recorded; 1 or 0. */
static int get_final(W *w, CXCursor at, CXCursor decl, poly_t v)
{
	for (int i = 0; i < w->nfin; i++) {
		if (!same_place(w->fin[i].loop, at) || !clang_equalCursors(w->fin[i].decl, decl))
			continue;
		const sym_pw *p = w->fin[i].v.n ? &w->fin[i].v.v[0].exp : NULL;
		if (!p || p->n == 0) {
			poly_zero(v, w->s->ctx);
			return 1;
		}
		if (p->n != 1 || p->p[0].g.n != 0)
			return 0;
		poly_set(v, p->p[0].v, w->s->ctx);
		return 1;
	}
	return 0;
}

static void clear_finals(W *w)
{
	for (int i = 0; i < w->nfin; i++)
		counts_clear(w->s, &w->fin[i].v);
	free(w->fin);
	w->fin = NULL;
	w->nfin = 0;
}

/* Notes how the loop AT can end early (ENDS) or skip the rest of an
 * iteration: WHAT at LINE. */
static void note_exit(W *w, CXCursor at, int ends, const char *what, int line)
{
	if (ends)
		note(w, at, "'%s' at line %d can end this loop early: its maximum and expected counts run it to its bound, "
			    "its minimum ends it in the first iteration", what, line);
	else
		note(w, at, "'%s' at line %d can skip the rest of an iteration: its maximum and expected counts run every "
			    "iteration whole, its minimum skips from there", what, line);
}

/* Counts the loop L whose variable takes the values l->vals (a geometric
 * update): the body is counted at each value with the variable pinned to
 * it (the statements after the update to the next value), so that what
 * depends on it (an inner bound, a step) is a constant there.  ESC, ENDS,
 * WHAT and LINE as count_loop() found them. */
static int count_vals(W *w, CXCursor at, loop *l, CXCursor *body, int nbody, int upd, int esc, int ends,
		      const char *what, int line, epi_counts *out)
{
	sym_ctx *s = w->s;
	if (w->npin == MAXDEPTH)
		return fail(w, at, "loops nested deeper than %d", MAXDEPTH);
	epi_counts full, least;
	counts_init(&full);
	counts_init(&least);
	int ret = 0, p = w->npin++;
	w->pin_decl[p] = l->decl;
	CXCursor *sib = w->sib;
	int nsib = w->nsib, isib = w->isib;
	enter_loop(w, at);
	for (int i = 0; i < l->nvals && ret == 0; i++) {
		long v = l->vals[i], next = i + 1 < l->nvals ? l->vals[i + 1] : geo_next(l, v);
		/* pass 1: the statements up to the way out, in the first iteration
		 * (for a continue, in every one), for the minimum */
		for (int pass = 0; pass < 2 && ret == 0; pass++) {
			if (pass == 1 && (esc < 0 || (ends && i > 0)))
				break;
			epi_counts *dst = pass ? &least : &full;
			int last = pass ? esc : nbody - 1;
			for (int j = 0; j <= last && ret == 0; j++) {
				if (j == upd || (pass && upd >= 0 && j > upd))
					continue;
				w->pin_val[p] = upd >= 0 && j > upd ? next : v;
				w->sib = body;
				w->nsib = nbody;
				w->isib = j;
				ret = stmt(w, body[j], dst);
			}
			if (ret == 0 && !(pass && l->nextra))
				count_si(w, dst, "iter", 1);
		}
	}
	w->sib = sib;
	w->nsib = nsib;
	w->isib = isib;
	w->loopdepth--;
	w->npin--;
	if (ret == 0 && esc < 0) {
		counts_add(s, out, &full);
	} else if (ret == 0) {
		counts_cut(s, out, &full, &least);
		note_exit(w, at, ends, what, line);
	}
	counts_clear(s, &full);
	counts_clear(s, &least);
	return ret;
}

/* Whether the bounds' difference NUM of a loop in VAR names an enclosing
 * loop's variable (or a floor of one): its trip count changes from entry
 * to entry. */
static int varies_per_entry(const sym_ctx *s, const poly_t num, int var)
{
	int used[SYM_MAXVARS];
	poly_used_vars(used, num, s->ctx);
	for (int v = 0; v < s->nvars; v++)
		if (used[v] && v != var && (s->kind[v] == SYM_LOOP || s->kind[v] == SYM_ATOM))
			return 1;
	return 0;
}

/* The statements of a loop body that skip the rest of an iteration under
 * an affine test, `if (i == j) continue;` (at most GC_MAX of them): the
 * statements after each counted where its test fails. */
#define GC_MAX 8
typedef struct skips {
	int n;
	int at[GC_MAX];              /* indices in the body */
	CXCursor cond[GC_MAX], cont[GC_MAX];
	int ok[GC_MAX];              /* its test read (if_ways) */
	ways *no[GC_MAX];            /* where its test fails (when read) */
} skips;

/* Whether ST is `if (COND) continue;` (no else; the branch a continue
 * alone, braced or not), or with a break for JUMP CXCursor_BreakStmt,
 * setting *COND and *CONT. */
static int guarded_jump(CXCursor st, enum CXCursorKind jump, CXCursor *cond, CXCursor *cont)
{
	if (kind(st) != CXCursor_IfStmt)
		return 0;
	kids kk = {0};
	kids_of(st, &kk);
	int ok = kk.n == 2;
	CXCursor t = ok ? kk.c[1] : clang_getNullCursor();
	if (ok && kind(t) == CXCursor_CompoundStmt) {
		kids tk = {0};
		kids_of(t, &tk);
		ok = tk.n == 1;
		t = ok ? tk.c[0] : t;
		kids_free(&tk);
	}
	ok = ok && kind(t) == jump;
	if (ok) {
		*cond = kk.c[0];
		*cont = t;
	}
	kids_free(&kk);
	return ok;
}

/* How a loop's `if (TEST) break;` on its own variable ends it (break_bound):
 * from the first value F on which the test holds for every value after
 * (i >= e counting up), at F alone (i == e), or at its first value L when
 * the test holds there, never after (i < e counting up). */
enum { BRK_FROM = 1, BRK_AT, BRK_FIRST };

/* Where a statement of BODY (the loop L's, stepping by 1 or -1, with one
 * bound) is `if (TEST) break;` with TEST comparing the loop's variable
 * with an affine value e, that statement into l->brk, how it ends the
 * loop into l->brk_kind, and into l->F the first value that breaks (e,
 * e + 1 for >, e - 1 for < counting down) or, for BRK_FIRST, the
 * condition (>= 0) that the test holds at L. count_breaking() counts the
 * loop; the statements after the test run where it fails, as after a
 * skip. */
static void break_bound(W *w, loop *l, CXCursor *body, int nbody)
{
	sym_ctx *s = w->s;
	int up = l->rel == CXBinaryOperator_LT || l->rel == CXBinaryOperator_LE;
	int down = l->rel == CXBinaryOperator_GT || l->rel == CXBinaryOperator_GE;
	if (l->alt || l->nextra || l->vals || l->pre_step || !(up ? l->step == 1 : down && l->step == -1))
		return;
	for (int i = 0; i < nbody; i++) {
		CXCursor cond, brk, at;
		const char *what;
		if (!guarded_jump(body[i], CXCursor_BreakStmt, &cond, &brk)) {
			if (escapes(body[i], &at, &what))
				return; /* a statement before it may skip its test */
			continue;
		}
		/* its test's variables keep their values through the body */
		refs r = {0};
		refs_of(cond, &r);
		for (int j = 0; j < r.n; j++)
			for (int k = 0; k < nbody; k++)
				if (!clang_equalCursors(r.d[j], l->decl) && writes(body[k], r.d[j], NULL))
					return;
		if (r.nm)
			return;
		loop m;
		loop_init(w, &m);
		m.decl = l->decl;
		int kind_ = 0;
		CXCursor sc = strip(cond);
		kids ek = {0};
		if (kind(sc) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(sc) == CXBinaryOperator_EQ)
			kids_of(sc, &ek);
		if (ek.n == 2) { /* var == e, e == var */
			int side = same_decl(ek.c[0], l->decl) ? 1 : same_decl(ek.c[1], l->decl) ? 0 : -1;
			if (side >= 0 && bound_poly(w, ek.c[side], l->F) == 0)
				kind_ = BRK_AT;
		} else if (loop_cond1(w, cond, &m) == 0 && !m.alt && clang_Cursor_isNull(m.offset)) {
			enum CXBinaryOperatorKind r = m.rel;
			int ge = r == CXBinaryOperator_GE || r == CXBinaryOperator_GT;
			int le = r == CXBinaryOperator_LE || r == CXBinaryOperator_LT;
			int strict = r == CXBinaryOperator_GT || r == CXBinaryOperator_LT;
			if ((up && ge) || (down && le)) { /* from e (+ 1, - 1 when strict) on */
				poly_add_si(l->F, m.B, strict ? (up ? 1 : -1) : 0, s->ctx);
				kind_ = BRK_FROM;
			} else if ((up && le) || (down && ge)) { /* at L when L < e (<=; > and >= counting down) */
				poly_sub(l->F, up ? m.B : l->L, up ? l->L : m.B, s->ctx);
				if (strict)
					poly_sub_si(l->F, l->F, 1, s->ctx);
				kind_ = BRK_FIRST;
			}
		}
		kids_free(&ek);
		if (kind_) {
			l->brk = body[i];
			l->brk_kind = kind_;
		}
		loop_clear(w, &m);
		return;
	}
}

static void skips_clear(W *w, skips *g)
{
	for (int k = 0; k < g->n; k++)
		if (g->no[k]) {
			ways_clear(w->s, g->no[k]);
			free(g->no[k]);
			g->no[k] = NULL;
		}
	g->n = 0;
}

/* Counts BODY[FROM, NBODY) into OUT (a for loop's, its update in its
 * header): after a skip of G whose test was read, what follows is
 * counted where the test fails. */
static int body_from(W *w, CXCursor *body, int from, int nbody, skips *g, epi_counts *out)
{
	int ret = 0;
	for (int i = from; i < nbody && ret == 0; i++) {
		w->sib = body;
		w->nsib = nbody;
		w->isib = i;
		ret = stmt(w, body[i], out);
		int k = 0;
		while (k < g->n && !(g->at[k] == i && g->ok[k]))
			k++;
		if (ret == 0 && k < g->n) {
			epi_counts rest;
			counts_init(&rest);
			ret = body_from(w, body, i + 1, nbody, g, &rest);
			if (ret == 0)
				add_ways(w->s, out, &rest, g->no[k]);
			counts_clear(w->s, &rest);
			break;
		}
	}
	return ret;
}

/* Counts body + iter over the iterations of a recognised loop into OUT.
 * A loop that a break or return can end early is counted to its bound
 * (maximum and expected counts) and, for the minimum, to the statement
 * that can end it in the first iteration; a continue in a for loop leaves
 * the iterations exact and the minimum counts the statements up to it,
 * unless it is a skip (`if (i == j) continue;`, skips), after which the
 * statements are counted where its test fails. */
static int count_loop(W *w, CXCursor at, loop *l, CXCursor *body, int nbody, int upd, int is_do, epi_counts *out)
{
	sym_ctx *s = w->s;
	int ret = 0;
	if (!l->vals && ((l->step > 0 && (l->rel == CXBinaryOperator_GT || l->rel == CXBinaryOperator_GE)) ||
			 (l->step < 0 && (l->rel == CXBinaryOperator_LT || l->rel == CXBinaryOperator_LE))))
		return unsupported(w, at, "the update moves away from the bound (zero or endless iterations)");
	/* the bound's variables and the induction variable must keep their
	 * values; esc: the first statement that can leave early */
	refs r = {0};
	r.d[r.n++] = l->decl;
	refs_of(l->bound, &r);
	if (!clang_Cursor_isNull(l->bound2))
		refs_of(l->bound2, &r);
	if (!clang_Cursor_isNull(l->offset))
		refs_of(l->offset, &r);
	int esc = -1, ends = 0;
	const char *esc_what = NULL;
	int esc_line = 0;
	skips gs = {0};
	for (int i = 0; i < nbody; i++) {
		int skip = i == upd; /* the update changes the induction variable, r.d[0] */
		body_scan b = {.w = {.decl = r.d + skip, .ndecl = r.n - skip}};
		scan_body_stmt(body[i], &b);
		if (b.w.found) {
			char *nm = spelling(r.d[skip + b.w.found - 1]);
			char why[200];
			snprintf(why, sizeof why, "'%s' changes inside it (line %d)", nm, line_of(b.w.at));
			free(nm);
			return unsupported(w, at, why);
		}
		for (int j = 0; j < r.nm; j++) {
			char *text = member_text(r.m[j]);
			if (!text)
				continue;
			CXCursor wat;
			int changed = writes_member(w->tu, body[i], text, &wat);
			if (changed) {
				char why[300];
				snprintf(why, sizeof why, "'%s' changes inside it (line %d)", text, line_of(wat));
				free(text);
				return unsupported(w, at, why);
			}
			free(text);
		}
		if (!b.e.found)
			continue;
		/* if (test) continue; in a for loop: read once its variable is
		 * one (a test that is no guard is a way out after all) */
		if (upd < 0 && !l->pre_step && !l->vals && gs.n < GC_MAX &&
		    (guarded_jump(body[i], CXCursor_ContinueStmt, &gs.cond[gs.n], &gs.cont[gs.n]) ||
		     (clang_equalCursors(body[i], l->brk) &&
		      guarded_jump(body[i], CXCursor_BreakStmt, &gs.cond[gs.n], &gs.cont[gs.n])))) {
			gs.at[gs.n++] = i;
			continue;
		}
		char why[200];
		snprintf(why, sizeof why, "'%s' at line %d can end an iteration early", b.e.what, line_of(b.e.at));
		/* a goto may jump anywhere; a continue in a while loop before its
		 * update skips the update */
		if (b.e.jumps || (!b.e.ends && upd >= 0 && i <= upd))
			return unsupported(w, at, why);
		if (esc < 0) {
			esc = i;
			esc_what = b.e.what;
			esc_line = line_of(b.e.at);
		}
		ends |= b.e.ends;
	}
	if (l->nextra) { /* body[0..nextra) are the condition's other tests */
		esc = l->nextra - 1;
		ends = 1;
		esc_what = "&&";
		esc_line = line_of(body[esc]);
	}
	int nth = 0;
	if (esc >= 0 && find_trip(w, at, 1, &nth)) {
		/* a measured trip count says how early it ends, which the bounds do not */
		char why[200];
		snprintf(why, sizeof why, "'%s' at line %d can end it early", esc_what, esc_line);
		return unsupported(w, at, why);
	}
	if (l->vals)
		return count_vals(w, at, l, body, nbody, upd, esc, ends, esc_what, esc_line, out);
	if (clang_getCanonicalType(clang_getCursorType(l->decl)).kind == CXType_Pointer) {
		char *nm = spelling(l->decl);
		note(w, at, "the pointer '%s' is counted in elements, from its first value to its bound (pointers named in "
			    "the count are parameters: their difference is what counts)", nm);
		free(nm);
	}
	if (l->rel == CXBinaryOperator_NE && !l->vals && poly_is_fmpq(l->L, s->ctx) && poly_is_fmpq(l->B, s->ctx)) {
		/* a bound behind the first value: the variable reaches it only by
		 * wrapping around its type (an unsigned one), or never */
		fmpq_t a, b;
		fmpq_init(a);
		fmpq_init(b);
		poly_get_fmpq(a, l->L, s->ctx);
		poly_get_fmpq(b, l->B, s->ctx);
		int behind = l->step > 0 ? fmpq_cmp(a, b) > 0 : fmpq_cmp(a, b) < 0;
		char why[200];
		if (behind) {
			char *sa = fmpq_get_str(NULL, 10, a), *sb = fmpq_get_str(NULL, 10, b);
			snprintf(why, sizeof why, "its '!=' bound %s is %s its first value %s: reached only by wrapping around",
				 sb, l->step > 0 ? "below" : "above", sa);
			flint_free(sa);
			flint_free(sb);
		}
		fmpq_clear(a);
		fmpq_clear(b);
		if (behind)
			return unsupported(w, at, why);
	}
	if (l->rel == CXBinaryOperator_NE && !l->vals) {
		note(w, at, "the '!=' condition is taken as '%s' (exact when the bound is reached exactly)",
		     l->step > 0 ? "<" : ">");
		l->rel = l->step > 0 ? CXBinaryOperator_LT : CXBinaryOperator_GT;
	}
	if (w->nlv == MAXDEPTH)
		return fail(w, at, "loops nested deeper than %d", MAXDEPTH);
	char *name = spelling(l->decl);
	for (int i = 0; i < w->nlv; i++)
		if (strcmp(s->name[w->lvvar[i]], name) == 0) {
			free(name);
			return unsupported(w, at, "its variable has the same name as an enclosing loop's");
		}
	int var = sym_var(s, name, SYM_LOOP);
	char kname[160];
	snprintf(kname, sizeof kname, "%s#", name);
	int kv = sym_var(s, kname, SYM_LOOP);
	free(name);
	if (var < 0 || kv < 0)
		return too_complex(w, at);
	w->lvdecl[w->nlv] = l->decl;
	w->lvstmt[w->nlv] = at;
	w->lvvar[w->nlv] = var;
	w->nlv++;
	enter_loop(w, at);
	/* the skips' tests, now that the loop's variable is one: one that
	 * is none of if_ways' is a way out as any other */
	for (int k = 0; k < gs.n; k++) {
		ways *yes = xmalloc(sizeof *yes);
		gs.no[k] = xmalloc(sizeof *gs.no[k]);
		gs.ok[k] = if_ways(w, gs.cond[k], yes, gs.no[k]);
		ways_clear(w->s, yes);
		free(yes);
		if (!gs.ok[k] && (esc < 0 || gs.at[k] < esc)) {
			esc = gs.at[k];
			esc_what = "continue";
			esc_line = line_of(gs.cont[k]);
		}
	}
	/* statements after the update see var + step; pre: the statements up
	 * to the first that can leave early (those before the update only) */
	epi_counts before, after, pre;
	counts_init(&before);
	counts_init(&after);
	counts_init(&pre);
	CXCursor *sib = w->sib;
	int nsib = w->nsib, isib = w->isib;
	if (gs.n) {
		ret = body_from(w, body, 0, nbody, &gs, &before);
	} else {
		for (int i = 0; i < nbody && ret == 0; i++) {
			w->sib = body;
			w->nsib = nbody;
			w->isib = i;
			if (i != upd)
				ret = stmt(w, body[i], !l->pre_step && (i < upd || upd < 0) ? &before : &after);
		}
	}
	if (gs.n && esc >= 0 && ret == 0) {
		ret = body_from(w, body, 0, esc + 1, &gs, &pre);
	} else {
		for (int i = 0; i <= esc && ret == 0 && (upd < 0 || i < upd); i++) {
			w->sib = body;
			w->nsib = nbody;
			w->isib = i;
			ret = stmt(w, body[i], &pre);
		}
	}
	skips_clear(w, &gs);
	w->sib = sib;
	w->nsib = nsib;
	w->isib = isib;
	w->loopdepth--;
	w->nlv--;
	poly_struct *sub[SYM_MAXVARS] = {0};
	poly_t x, K, num;
	poly_init(x, s->ctx);
	poly_init(K, s->ctx);
	poly_init(num, s->ctx);
	if (ret == 0 && after.n) {
		poly_add_si(x, &s->gen[var], l->step, s->ctx);
		sub[var] = x;
		ret = counts_compose(s, &after, sub) < 0 ? too_complex(w, at) : 0;
		if (ret == 0 && l->pre_step && counts_compose(s, &pre, sub) < 0)
			ret = too_complex(w, at);
		counts_add(s, &before, &after);
		counts_clear(s, &after);
		sub[var] = NULL;
	}
	count_si(w, &before, "iter", 1);
	if (esc >= 0 && !l->nextra) /* a test of the condition that fails ends it before an iteration */
		count_si(w, &pre, "iter", 1);
	if (ret == 0) {
		/* var = L + step*k for k = first..K, where the last k keeps var REL B */
		fmpz_t st;
		fmpz_init_set_si(st, l->step > 0 ? l->step : -l->step);
		if (l->step > 0)
			poly_sub(num, l->B, l->L, s->ctx); /* B - L */
		else
			poly_sub(num, l->L, l->B, s->ctx); /* L - B */
		if (l->rel == CXBinaryOperator_LT || l->rel == CXBinaryOperator_GT)
			poly_sub_ui(num, num, 1, s->ctx);
		if (sym_floor(s, K, num, st) < 0)
			ret = too_complex(w, at);
		fmpz_clear(st);
	}
	if (ret == 0 && w->o->tag_loops && w->loop_line && poly_degree_si(l->L, var, s->ctx) < 1 &&
	    varies_per_entry(s, num, var)) {
		/* a trip count that changes from entry to entry (a triangular
		 * loop): 2k + 1 in iteration k = (var - L) / step, summed over
		 * the iterations, is the trip count squared, from which the
		 * compiled-code model reads how much it varies */
		char key[32];
		snprintf(key, sizeof key, "%%%d/iter2", w->loop_line);
		fmpz_t st;
		fmpz_init_set_si(st, l->step);
		poly_sub(x, &s->gen[var], l->L, s->ctx);
		poly_scalar_div_fmpz(x, x, st, s->ctx);
		poly_scalar_mul_si(x, x, 2, s->ctx);
		poly_add_si(x, x, 1, s->ctx);
		counts_add_poly(s, &before, key, x);
		fmpz_clear(st);
	}
	if (ret == 0 && esc < 0 && !is_do && !l->pre_step && !l->scoped && !l->alt && !l->alt_l &&
	    kind(l->decl) != CXCursor_ParmDecl) {
		/* its variable after it: L + step (K + 1) */
		poly_add_si(x, K, 1, s->ctx);
		poly_scalar_mul_si(x, x, l->step, s->ctx);
		poly_add(x, x, l->L, s->ctx);
		set_final(w, at, l->decl, x);
	}
	if (ret == 0 && esc < 0) {
		ret = iterate(w, at, l, var, kv, K, is_do, &before, out);
	} else if (ret == 0) {
		epi_counts full, least;
		counts_init(&full);
		counts_init(&least);
		ret = iterate(w, at, l, var, kv, K, is_do, &before, &full);
		if (ret == 0 && ends) {
			/* left in the first iteration, var = L */
			sub[var] = l->L;
			counts_set(s, &least, &pre);
			if (counts_compose(s, &least, sub) < 0)
				ret = too_complex(w, at);
			else if (!is_do && poly_total_degree_si(K, s->ctx) <= 1)
				counts_restrict(s, &least, K); /* when the loop runs at all */
			else if (!is_do)
				counts_clear(s, &least); /* a minimum of 0 */
		} else if (ret == 0) {
			ret = iterate(w, at, l, var, kv, K, is_do, &pre, &least);
		}
		if (ret == 0) {
			counts_cut(s, out, &full, &least);
			note_exit(w, at, ends, esc_what, esc_line);
		}
		counts_clear(s, &full);
		counts_clear(s, &least);
	}
	poly_clear(x, s->ctx);
	poly_clear(K, s->ctx);
	poly_clear(num, s->ctx);
	counts_clear(s, &before);
	counts_clear(s, &after);
	counts_clear(s, &pre);
	return ret;
}

/* Counts a loop whose trip count is given: trip x (body + iter); with
 * TMIN, the minimum counts are TMIN x (body + iter) and the maximum and
 * expected ones T x (body + iter). */
/* Restricts C to where the value chosen by ALT (1 the lesser, -1 the
 * greater) of A and B is A (WHICH 0, ties included) or B (WHICH 1). */
static void restrict_choice(sym_ctx *s, epi_counts *c, const poly_t A, const poly_t B, int alt, int which)
{
	poly_t d;
	poly_init(d, s->ctx);
	poly_sub(d, B, A, s->ctx); /* A the lesser: B - A >= 0 */
	if (alt < 0)
		poly_neg(d, d, s->ctx);
	if (which) {
		poly_neg(d, d, s->ctx);
		poly_sub_ui(d, d, 1, s->ctx);
	}
	counts_restrict(s, c, d);
	poly_clear(d, s->ctx);
}

/* count_loop(), and for a bound or a first value that is the lesser or the
 * greater of two (l->alt, l->alt_l), the loop counted with each, where it
 * is the one chosen: exact, as the sums over the loops around split where
 * the two cross. */
static int count_bounded(W *w, CXCursor at, loop *l, CXCursor *body, int nbody, int upd, int is_do, epi_counts *out)
{
	if (!l->alt && !l->alt_l)
		return count_loop(w, at, l, body, nbody, upd, is_do, out);
	sym_ctx *s = w->s;
	poly_t L1, B1;
	poly_init(L1, s->ctx);
	poly_init(B1, s->ctx);
	poly_set(L1, l->L, s->ctx);
	poly_set(B1, l->B, s->ctx);
	int ret = 0;
	for (int il = 0; il < (l->alt_l ? 2 : 1) && ret == 0; il++)
		for (int ib = 0; ib < (l->alt ? 2 : 1) && ret == 0; ib++) {
			poly_set(l->L, il ? l->L2 : L1, s->ctx);
			poly_set(l->B, ib ? l->B2 : B1, s->ctx);
			epi_counts c;
			counts_init(&c);
			ret = count_loop(w, at, l, body, nbody, upd, is_do, &c);
			if (ret == 0) {
				if (l->alt_l)
					restrict_choice(s, &c, L1, l->L2, l->alt_l, il);
				if (l->alt)
					restrict_choice(s, &c, B1, l->B2, l->alt, ib);
				counts_add(s, out, &c);
			}
			counts_clear(s, &c);
		}
	poly_set(l->L, L1, s->ctx);
	poly_set(l->B, B1, s->ctx);
	poly_clear(L1, s->ctx);
	poly_clear(B1, s->ctx);
	return ret;
}

/* The loop AT (a for loop's BODY, NBODY statements) that its statement
 * l->brk ends (break_bound), in two regions: where it breaks in the range
 * (from F or at F, F not before the first value L; at L where the test
 * holds there), with a second bound that lets that iteration run; and
 * where it does not, with L alone (BRK_FROM: the test holds from L on)
 * or its bound alone. */
static int count_breaking(W *w, CXCursor at, loop *l, CXCursor *body, int nbody, epi_counts *out)
{
	sym_ctx *s = w->s;
	int up = l->rel == CXBinaryOperator_LT || l->rel == CXBinaryOperator_LE;
	int strict = l->rel == CXBinaryOperator_LT || l->rel == CXBinaryOperator_GT, ret = 0;
	poly_t reg, last;
	poly_init(reg, s->ctx);
	poly_init(last, s->ctx);
	/* the region where it breaks in the range (reg >= 0), and the last value that runs there */
	if (l->brk_kind == BRK_FIRST) {
		poly_set(reg, l->F, s->ctx);
		poly_set(last, l->L, s->ctx);
	} else {
		poly_sub(reg, up ? l->F : l->L, up ? l->L : l->F, s->ctx);
		poly_set(last, l->F, s->ctx);
	}
	for (int region = 0; region < 2 && ret == 0; region++) {
		if (region == 1) { /* the other region: reg < 0 */
			poly_neg(reg, reg, s->ctx);
			poly_sub_si(reg, reg, 1, s->ctx);
			poly_set(last, l->L, s->ctx);
		}
		/* a second bound that lets LAST run: last + 1 (last - 1) as < (>) reads it */
		int bounded = region == 0 || l->brk_kind == BRK_FROM;
		poly_add_si(l->B2, last, strict ? (up ? 1 : -1) : 0, s->ctx);
		l->alt = bounded ? (up ? 1 : -1) : 0;
		epi_counts c;
		counts_init(&c);
		ret = count_bounded(w, at, l, body, nbody, -1, 0, &c);
		if (ret == 0) {
			counts_restrict(s, &c, reg);
			counts_add(s, out, &c);
		}
		counts_clear(s, &c);
	}
	l->alt = 0;
	poly_clear(reg, s->ctx);
	poly_clear(last, s->ctx);
	return ret;
}

static int count_given(W *w, CXCursor at, CXCursor body, const poly_t T, const poly_struct *tmin, epi_counts *out)
{
	epi_counts b;
	counts_init(&b);
	CXCursor *sib = w->sib;
	w->sib = NULL;
	enter_loop(w, at);
	int ret = stmt(w, body, &b);
	w->loopdepth--;
	w->sib = sib;
	if (ret == 0) {
		count_si(w, &b, "iter", 1);
		if (tmin) {
			epi_counts lo;
			counts_init(&lo);
			counts_set(w->s, &lo, &b);
			counts_mul_poly(w->s, &lo, tmin);
			counts_mul_poly(w->s, &b, T);
			fmpq_t one;
			fmpq_init(one);
			fmpq_one(one);
			counts_branch(w->s, out, &b, &lo, one);
			fmpq_clear(one);
			counts_clear(w->s, &lo);
		} else {
			counts_mul_poly(w->s, &b, T);
			counts_add(w->s, out, &b);
		}
	}
	counts_clear(w->s, &b);
	return ret;
}

/* Whether NAME is a word of W's file, or the name of a symbol of its
 * program (a variable of a header's function, say). */
static int program_name(W *w, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = w->text; p && (p = strstr(p, name)); p++) { /* the text ends in a NUL */
		int before = p > w->text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$');
		int after = isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '$';
		if (!before && !after)
			return 1;
	}
	for (int k = 0; k < w->s->nvars; k++)
		if (w->s->kind[k] != SYM_ATOM && w->s->kind[k] != SYM_FREE && !sym_is_trip(w->s, k) &&
		    strcmp(w->s->name[k], name) == 0)
			return 1;
	return 0;
}

/* The name of the trip-count parameter of the loop LABEL names:
 * T<label>, with "_trip" added while that is a name of the program's, so
 * that no variable of the program reads as a trip count. */
static void trip_name(W *w, const char *label, char *name, size_t n)
{
	snprintf(name, n, "T%s", label);
	for (int i = 0; i < 4 && program_name(w, name); i++) {
		size_t len = strlen(name);
		snprintf(name + len, n - len, "_trip");
	}
}

/* Counts the loop AT, which cannot be counted (w->why says why), with its
 * measured trip count, its loopbound pragma, or else the trip-count
 * parameter T<line> (T<line>_<nth> for a later loop on the same line),
 * which the report lists among the parameters to bind.  The body is
 * counted as usual: the loops in it are counted, or get their own. */
/* ---- tile loops ------------------------------------------------------------
 *
 * for (ii = lo; ii < n; ii += b) ... for (i = ii; i < MIN(ii + b, n); i++)
 * with b no constant: the tile loop's trip count is no polynomial, but
 * its point loops cover lo..n once, whatever b. Where ii is read nowhere
 * but in its point loops' headers and in subscripts (which move addresses,
 * not counts), the body neither leaves early nor changes b or n, the tile
 * loop is counted by its trip count T with its point loops running
 * nothing (the counts C0 of one iteration), plus, once, one iteration
 * whose point loops run over the whole range (C1) less C0: T*C0 + C1 -
 * C0. A point loop's end may be min(ii + b, n) as a ?:, a min() function
 * of the file, `i < ii + b && i < n`, or a variable the body sets to one
 * where it declares it. */

static CXCursor update_target(CXCursor e);
static void for_parts(const CXCursor *h, int n, CXCursor *init, CXCursor *cond, CXCursor *inc);

/* Whether expressions A and B are the same (the same operators, variables,
 * members and literals), parentheses and implicit conversions aside; a
 * call or a read of memory is never the same as another. */
static int same_expr(CXCursor a, CXCursor b)
{
	a = strip(a);
	b = strip(b);
	enum CXCursorKind k = kind(a);
	if (k != kind(b))
		return 0;
	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
		CXCursor x = clang_getCursorReferenced(a), y = clang_getCursorReferenced(b);
		if (clang_Cursor_isNull(x) || !clang_equalCursors(x, y))
			return 0;
	} else if (k == CXCursor_IntegerLiteral) {
		CXEvalResult x = clang_Cursor_Evaluate(a), y = clang_Cursor_Evaluate(b);
		int same = x && y && clang_EvalResult_getKind(x) == CXEval_Int && clang_EvalResult_getKind(y) == CXEval_Int &&
			   clang_EvalResult_getAsLongLong(x) == clang_EvalResult_getAsLongLong(y);
		if (x)
			clang_EvalResult_dispose(x);
		if (y)
			clang_EvalResult_dispose(y);
		return same;
	} else if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
		if (clang_getCursorBinaryOperatorKind(a) != clang_getCursorBinaryOperatorKind(b))
			return 0;
	} else if (k == CXCursor_UnaryOperator) {
		if (clang_getCursorUnaryOperatorKind(a) != clang_getCursorUnaryOperatorKind(b) ||
		    clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_Deref)
			return 0;
	} else if (k != CXCursor_ConditionalOperator) {
		return 0; /* others (calls, memory) may not give the same value twice */
	}
	if (k == CXCursor_DeclRefExpr)
		return 1;
	kids ka = {0}, kb = {0};
	kids_of(a, &ka);
	kids_of(b, &kb);
	int same = ka.n == kb.n;
	for (int i = 0; i < ka.n && same; i++)
		same = same_expr(ka.c[i], kb.c[i]);
	kids_free(&ka);
	kids_free(&kb);
	return same;
}

/* Whether E is `ii + b` (or `b + ii`) of tile T. */
static int tile_end(const struct tile *t, CXCursor e)
{
	e = strip(e);
	if (kind(e) != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(e) != CXBinaryOperator_Add)
		return 0;
	kids kk = {0};
	kids_of(e, &kk);
	int ok = kk.n == 2 && ((same_decl(kk.c[0], t->decl) && same_expr(kk.c[1], t->step)) ||
			       (same_decl(kk.c[1], t->decl) && same_expr(kk.c[0], t->step)));
	kids_free(&kk);
	return ok;
}

/* Where E is `i < x` (or `x > i`) of the variable ID: x. */
static CXCursor below(CXCursor e, CXCursor id)
{
	e = strip(e);
	CXCursor x = clang_getNullCursor();
	if (kind(e) != CXCursor_BinaryOperator)
		return x;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	kids kk = {0};
	kids_of(e, &kk);
	if (kk.n == 2 && op == CXBinaryOperator_LT && same_decl(kk.c[0], id))
		x = kk.c[1];
	else if (kk.n == 2 && op == CXBinaryOperator_GT && same_decl(kk.c[1], id))
		x = kk.c[0];
	kids_free(&kk);
	return x;
}

/* Whether A and B are tile T's end `ii + b` and its bound n, either way. */
static int tile_ends(const struct tile *t, CXCursor a, CXCursor b)
{
	return (tile_end(t, a) && same_expr(b, t->bound)) || (tile_end(t, b) && same_expr(a, t->bound));
}

/* A point loop's bound X, or where X is a variable the function sets once
 * where it declares it (int e = MIN(ii + b, n)), its value, the variable
 * into *END. */
static CXCursor end_value(W *w, CXCursor x, CXCursor *end)
{
	CXCursor d = named_decl(x), v = clang_Cursor_isNull(d) ? d : var_init(w, d);
	if (clang_Cursor_isNull(v))
		return x;
	*end = d;
	return v;
}

/* Whether COND is i < MIN(ii + b, n) (a ?: choosing the lesser, as the
 * macro writes it) or i < ii + b && i < n, of tile T and point variable ID;
 * a bound may be a variable set to such a value where it is declared
 * (*END, else left null). */
static int point_cond(W *w, CXCursor cond, CXCursor id, const struct tile *t, CXCursor *end)
{
	kids parts = {0};
	op_parts(cond, CXBinaryOperator_LAnd, &parts);
	int ok = 0;
	if (parts.n == 2) {
		CXCursor x = below(parts.c[0], id), y = below(parts.c[1], id);
		ok = !clang_Cursor_isNull(x) && !clang_Cursor_isNull(y) && tile_ends(t, x, y);
	} else if (parts.n == 1) {
		CXCursor x = below(parts.c[0], id), a, b;
		if (!clang_Cursor_isNull(x))
			x = end_value(w, x, end);
		if (!clang_Cursor_isNull(x) && minmax_call(w, x, &a, &b) == 1) { /* min(ii + b, n), a function */
			kids_free(&parts);
			return tile_ends(t, a, b);
		}
		kids ck = {0};
		if (!clang_Cursor_isNull(x) && kind(x = strip(x)) == CXCursor_ConditionalOperator)
			kids_of(x, &ck);
		ok = ck.n == 3 && choice_by(ck.c[0], ck.c[1], ck.c[2]) == 1 && tile_ends(t, ck.c[1], ck.c[2]);
		kids_free(&ck);
	}
	kids_free(&parts);
	return ok;
}

/* The tile whose point loop is the for loop of INIT, COND and updates UK
 * (i = ii, the condition of point_cond(), i++ among the updates), with L
 * set to count it over the tile's whole range, *IND to i++'s index in UK
 * and *END to the variable that holds its end (when not NULL: else a
 * loop bounded by one is none); NULL when it is none. */
static const struct tile *point_loop(W *w, CXCursor init, CXCursor cond, const kids *uk, loop *l, int *ind,
				     CXCursor *end)
{
	CXCursor e = clang_getNullCursor();
	CXCursor id = clang_getNullCursor(), first = clang_getNullCursor();
	if (clang_Cursor_isNull(init))
		return NULL;
	kids dk = {0}, vk = {0};
	if (kind(init) == CXCursor_DeclStmt) {
		kids_of(init, &dk);
		if (dk.n == 1 && kind(dk.c[0]) == CXCursor_VarDecl) {
			kids_of(dk.c[0], &vk);
			if (vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1]))) {
				id = dk.c[0];
				first = vk.c[vk.n - 1];
			}
		}
	} else {
		CXCursor si = strip(init);
		kids_of(si, &vk);
		if (kind(si) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(si) == CXBinaryOperator_Assign &&
		    vk.n == 2) {
			id = named_decl(vk.c[0]);
			first = vk.c[1];
		}
	}
	const struct tile *t = NULL;
	for (int k = w->ntile - 1; k >= 0 && !t && !clang_Cursor_isNull(id); k--)
		if (same_decl(first, w->tile[k].decl))
			t = &w->tile[k];
	kids_free(&dk);
	kids_free(&vk);
	if (!t || !point_cond(w, cond, id, t, &e) || (!end && !clang_Cursor_isNull(e)))
		return NULL;
	if (end)
		*end = e;
	l->decl = id;
	int found = -1;
	for (int k = 0; k < uk->n && found < 0; k++) {
		CXCursor d = update_target(uk->c[k]);
		if (!clang_Cursor_isNull(d) && clang_equalCursors(d, id) && loop_step(w, uk->c[k], l) == 0 && l->step == 1)
			found = k;
	}
	if (found < 0 || expr_poly(w, t->lo, l->L) < 0 || expr_poly(w, t->bound, l->B) < 0)
		return NULL;
	l->rel = CXBinaryOperator_LT;
	l->bound = t->bound;
	*ind = found;
	return t;
}

/* The reads of DECL under C outside the subscripts of arrays (a[ii + i],
 * whose value moves an address, not a count); 0 for a null C. */
static int reads_counted(CXCursor c, CXCursor decl)
{
	if (clang_Cursor_isNull(c))
		return 0;
	if (kind(c) == CXCursor_DeclRefExpr)
		return clang_equalCursors(clang_getCursorReferenced(c), decl);
	kids kk = {0};
	kids_of(c, &kk);
	int n = 0;
	for (int i = 0; i < kk.n; i++)
		if (!(kind(c) == CXCursor_ArraySubscriptExpr && i == 1))
			n += reads_counted(kk.c[i], decl);
	kids_free(&kk);
	return n;
}

/* The point loops under a tile loop's body: whether there is one, the
 * tile variable's reads in their headers, and the variables that hold
 * their ends with their reads there. */
typedef struct points {
	W *w;
	int n, reads, nend;
	CXCursor end[8];
	int end_reads[8];
} points;

static enum CXChildVisitResult find_points(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	points *pts = d;
	if (kind(c) != CXCursor_ForStmt)
		return CXChildVisit_Recurse;
	kids kk = {0}, uk = {0};
	kids_of(c, &kk);
	CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
	if (kk.n >= 1)
		for_parts(kk.c, kk.n - 1, &init, &cond, &inc);
	if (!clang_Cursor_isNull(inc))
		op_parts(inc, CXBinaryOperator_Comma, &uk);
	loop l;
	loop_init(pts->w, &l);
	int ind;
	CXCursor e = clang_getNullCursor();
	const struct tile *t = clang_Cursor_isNull(cond) ? NULL : point_loop(pts->w, init, cond, &uk, &l, &ind, &e);
	if (t == &pts->w->tile[pts->w->ntile - 1]) {
		pts->n++;
		pts->reads += reads_counted(init, t->decl) + reads_counted(cond, t->decl);
		if (!clang_Cursor_isNull(e)) { /* its value's reads, once a variable */
			int k = 0;
			while (k < pts->nend && !clang_equalCursors(pts->end[k], e))
				k++;
			if (k == pts->nend && k < 8) {
				pts->end[pts->nend] = e;
				pts->end_reads[pts->nend++] = 0;
				pts->reads += reads_counted(var_init(pts->w, e), t->decl);
			}
			if (k < 8)
				pts->end_reads[k] += reads_counted(cond, e);
			else
				pts->reads = -1;
		}
	}
	loop_clear(pts->w, &l);
	kids_free(&kk);
	kids_free(&uk);
	return CXChildVisit_Recurse;
}

/* Where the loop AT that trip_fallback counts is the tile loop w->tc with
 * BODY reading its variable only in point loops' headers and subscripts
 * (see above): pushes it (its point loops running nothing) and returns 1;
 * else 0. */
static int tile_of(W *w, CXCursor at, CXCursor body)
{
	if (clang_Cursor_isNull(w->tc.at) || !clang_equalCursors(w->tc.at, at) || clang_Cursor_isNull(w->tc.lo) ||
	    w->ntile == MAXDEPTH)
		return 0;
	/* tiles that cover the range: no way out of the body, the step and
	 * the bound the same throughout */
	CXCursor wat;
	const char *what;
	if (escapes(body, &wat, &what))
		return 0;
	refs r = {0};
	refs_of(w->tc.step, &r);
	refs_of(w->tc.bound, &r);
	for (int i = 0; i < r.n; i++)
		if (writes(body, r.d[i], NULL))
			return 0;
	for (int i = 0; i < r.nm; i++) {
		char *text = member_text(r.m[i]);
		int changed = !text || writes_member(w->tu, body, text, &wat);
		free(text);
		if (changed)
			return 0;
	}
	w->tile[w->ntile] = w->tc;
	w->tile[w->ntile++].full = 0;
	points pts = {.w = w};
	find_points(body, clang_getNullCursor(), &pts);
	clang_visitChildren(body, find_points, &pts);
	/* the tile variable and the ends read nowhere else but in subscripts */
	int ok = pts.n > 0 && pts.reads == reads_counted(body, w->tc.decl) && !writes(body, w->tc.decl, NULL);
	for (int k = 0; k < pts.nend && ok; k++)
		ok = pts.end_reads[k] == reads_counted(body, pts.end[k]) && !writes(body, pts.end[k], NULL);
	if (ok)
		return 1;
	w->ntile--;
	return 0;
}

/* OUT += C1 - C0 of the tile loop AT (tile_of), BODY counted once with its
 * point loops over the whole range and once with them running nothing. */
static int tile_rest(W *w, CXCursor at, CXCursor body, epi_counts *out)
{
	epi_counts c1, c0;
	counts_init(&c1);
	counts_init(&c0);
	CXCursor *sib = w->sib;
	w->sib = NULL;
	enter_loop(w, at);
	w->tile[w->ntile - 1].full = 1;
	int ret = stmt(w, body, &c1);
	w->tile[w->ntile - 1].full = 0;
	if (ret == 0)
		ret = stmt(w, body, &c0);
	w->loopdepth--;
	w->sib = sib;
	if (ret == 0) {
		counts_add(w->s, out, &c1);
		for (int i = 0; i < c0.n; i++)
			counts_add_scaled(w->s, out, c0.key[i], &c0, i, -1);
	}
	counts_clear(w->s, &c1);
	counts_clear(w->s, &c0);
	return ret;
}

static int trip_fallback(W *w, CXCursor at, epi_counts *out)
{
	sym_ctx *s = w->s;
	char why[sizeof w->why], label[48];
	snprintf(why, sizeof why, "%s", w->why);
	if (w->foreign) /* no trip count names a header's loop */
		return fail(w, at, "cannot count this loop: %s", why);
	int nth = 0;
	const epi_trip *m = find_trip(w, at, 1, &nth);
	const pragma *pb = find_pragma(w, at, 0);
	if (!nth)
		nth = w->cur ? loop_nth(w->cur->cur, at) : 1;
	cf_loop_label(label, sizeof label, line_of(at), nth);
	CXCursor body = loop_body(at);
	if (clang_Cursor_isNull(body))
		return 0;
	w->nfallback++;
	poly_t T, lo;
	poly_init(T, s->ctx);
	poly_init(lo, s->ctx);
	int ret = 0, range = 0;
	if (m) {
		ret = trip_poly(w, at, m->expr, T) < 0 ? -1 : 0;
		if (ret == 0)
			note(w, at, "this loop cannot be counted (%s): counted with its measured trip count %s%s%s", why,
			     m->expr, m->origin ? ", " : "", m->origin ? m->origin : "");
	} else if (pb) {
		poly_set_si(T, pb->max, s->ctx);
		poly_set_si(lo, pb->min, s->ctx);
		range = 1;
		note(w, at, "this loop cannot be counted (%s): its loopbound pragma gives %ld to %ld iterations "
			    "(minimum and maximum counts; expected: the maximum)", why, pb->min, pb->max);
	} else {
		char name[96];
		trip_name(w, label, name, sizeof name);
		int v = sym_trip_var(s, name, line_of(at), nth);
		if (v < 0)
			ret = fail(w, at, "%s", s->err);
		else
			poly_set(T, &s->gen[v], s->ctx);
		if (ret == 0 && w->o->strict) {
			char msg[EPI_ERRLEN];
			snprintf(msg, sizeof msg, "%s:%d: cannot count this loop: %s; give its trip count with --trip %s:%s=EXPR "
				 "or '#pragma epi trip(EXPR)' before the loop", w->filename, line_of(at), why, w->filename, label);
			cf_add_unique(&w->a->errors, &w->a->nerrors, xstrdup(msg));
		} else if (ret == 0) {
			note(w, at, "cannot count this loop: %s; its trip count is the parameter %s (bind it with "
				    "--param %s=N or --trip %s:%s=EXPR)", why, name, name, w->filename, label);
		}
	}
	if (ret == 0 && w->nvary < MAXDEPTH) {
		w->vary[w->nvary++] = body;
		int tiled = !range && tile_of(w, at, body);
		if (tiled) {
			char *nm = spelling(w->tc.decl), *st = expr_text(w, w->tc.step);
			note(w, at, "the loops inside it from '%s' to the lesser of '%s + %s' and its bound cover its range "
				    "once: what they run is counted exactly, whatever the step; only the rest of its body "
				    "takes the trip count", nm, nm, st);
			free(nm);
			free(st);
		}
		ret = count_given(w, at, body, T, range ? lo : NULL, out);
		if (ret == 0 && tiled)
			ret = tile_rest(w, at, body, out);
		w->ntile -= tiled;
		w->nvary--;
	} else if (ret == 0) {
		ret = fail(w, at, "loops nested deeper than %d", MAXDEPTH);
	}
	poly_clear(T, s->ctx);
	poly_clear(lo, s->ctx);
	return ret;
}

static void loop_init(W *w, loop *l)
{
	memset(l, 0, sizeof *l);
	l->decl = clang_getNullCursor();
	l->bound = clang_getNullCursor();
	l->offset = clang_getNullCursor();
	l->vstep = clang_getNullCursor();
	l->brk = clang_getNullCursor();
	l->bound2 = clang_getNullCursor();
	poly_init(l->F, w->s->ctx);
	poly_init(l->L, w->s->ctx);
	poly_init(l->B, w->s->ctx);
	poly_init(l->B2, w->s->ctx);
	poly_init(l->L2, w->s->ctx);
}

static void loop_clear(W *w, loop *l)
{
	free(l->vals);
	l->vals = NULL;
	poly_clear(l->L, w->s->ctx);
	poly_clear(l->B, w->s->ctx);
	poly_clear(l->B2, w->s->ctx);
	poly_clear(l->L2, w->s->ctx);
	poly_clear(l->F, w->s->ctx);
}

/* The statements of one iteration of the loop L, as count_loop() takes
 * them, appended to K: the condition's other tests (l->extra), then the
 * body's statements (a compound statement's children, or the body itself). */
static void iteration_stmts(const loop *l, CXCursor body, kids *k)
{
	for (int i = 0; i < l->nextra; i++)
		kid_visit(l->extra[i], body, k);
	if (kind(body) == CXCursor_CompoundStmt)
		clang_visitChildren(body, kid_visit, k);
	else
		kid_visit(body, body, k);
}

/* The statements of a loop body (a compound statement's children, or itself). */
static void body_stmts(CXCursor body, kids *k)
{
	if (kind(body) == CXCursor_CompoundStmt) {
		kids_of(body, k);
	} else {
		k->n = 0;
		kid_visit(body, body, k);
	}
}

/* The text of the structure's member that an update of UK (an increment's
 * parts) changes (s.i++, p->k += 2), or NULL (malloc'd). */
static char *member_update(W *w, const kids *uk)
{
	char *t = NULL;
	for (int i = 0; i < uk->n && !t; i++) {
		CXCursor e = strip(uk->c[i]);
		enum CXCursorKind k = kind(e);
		kids kk = {0};
		kids_of(e, &kk);
		enum CXUnaryOperatorKind u = k == CXCursor_UnaryOperator ? clang_getCursorUnaryOperatorKind(e) : 0;
		int upd = (kk.n == 1 && (u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc ||
					 u == CXUnaryOperator_PostDec || u == CXUnaryOperator_PreDec)) ||
			  ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) && kk.n == 2 &&
			   clang_getCursorBinaryOperatorKind(e) >= CXBinaryOperator_Assign &&
			   clang_getCursorBinaryOperatorKind(e) <= CXBinaryOperator_OrAssign);
		if (upd && kind(strip(kk.c[0])) == CXCursor_MemberRefExpr)
			t = expr_text(w, strip(kk.c[0]));
		kids_free(&kk);
	}
	return t;
}

/* The variable an update (x++, x += c, x = e) changes, or a null cursor. */
static CXCursor update_target(CXCursor e)
{
	e = strip(e);
	enum CXCursorKind k = kind(e);
	CXCursor d = clang_getNullCursor();
	kids kk = {0};
	kids_of(e, &kk);
	if (k == CXCursor_UnaryOperator && kk.n == 1) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
		if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostDec ||
		    op == CXUnaryOperator_PreDec)
			d = named_decl(kk.c[0]);
	} else if ((k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) && kk.n == 2) {
		enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
		if (op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign)
			d = named_decl(kk.c[0]);
	}
	kids_free(&kk);
	return d;
}

/* The first value of the induction variable l->decl of the loop C, which
 * no header assigns: its last assignment before C in the same block, or a
 * parameter's value on entry.  Returns 0, UNCOUNTED or -1. */
static int prior_value(W *w, CXCursor c, loop *l)
{
	sym_ctx *s = w->s;
	int found = 0;
	for (int i = w->isib - 1; i >= 0 && !found && w->sib; i--) {
		CXCursor p = attributed(w->sib[i]);
		if (!writes(p, l->decl, NULL) && kind(p) != CXCursor_DeclStmt)
			continue;
		if (is_loop_stmt(p)) { /* where a loop before it left the variable */
			if (!get_final(w, p, l->decl, l->L))
				return unsupported(w, c, "its variable's first value is where a loop before it left it, "
							 "which that loop's count does not say");
			char *nm = spelling(l->decl);
			note(w, c, "'%s' starts where the loop at line %d left it (that loop assumed to run from its "
				   "first value toward its bound)", nm, line_of(p));
			free(nm);
			return 0;
		}
		CXCursor e = clang_getNullCursor();
		if (kind(p) == CXCursor_DeclStmt) {
			kids dk = {0};
			kids_of(p, &dk);
			for (int j = 0; j < dk.n; j++)
				if (clang_equalCursors(dk.c[j], l->decl)) {
					kids vk = {0};
					kids_of(dk.c[j], &vk);
					if (vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1])))
						e = vk.c[vk.n - 1];
					kids_free(&vk);
					found = 1;
				}
			kids_free(&dk);
			if (!found)
				continue;
		} else {
			CXCursor sp = strip(p);
			kids ik = {0};
			kids_of(sp, &ik);
			if (kind(sp) == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(sp) == CXBinaryOperator_Assign &&
			    ik.n == 2 && same_decl(ik.c[0], l->decl))
				e = ik.c[1];
			kids_free(&ik);
			found = 1;
		}
		if (clang_Cursor_isNull(e) || expr_poly(w, e, l->L) < 0)
			return unsupported(w, c, "the first value of its variable is not an affine expression assigned before it");
	}
	if (found)
		return 0;
	if (kind(l->decl) != CXCursor_ParmDecl)
		return unsupported(w, c, "no assignment of its variable before it in the same block");
	/* the parameter's value on entry */
	char *nm = spelling(l->decl);
	int v = sym_var(s, nm, SYM_PARAM);
	free(nm);
	if (v < 0)
		return fail(w, c, "%s", s->err);
	poly_set(l->L, &s->gen[v], s->ctx);
	return 0;
}

static int body_update_loop(W *w, CXCursor c, CXCursor cond, CXCursor body, int is_do, const kids *ik,
			    epi_counts *out);

/* Recognises a condition that updates the variable it tests, counting
 * down (n--, --n, alone: while it is not 0) or either way against a bound
 * (n-- > 0, ++i < n); sets l's decl, step, rel, B and bound, and *POST:
 * whether the test reads the value before the update.  Returns 0 or -1. */
static int cond_update(W *w, CXCursor cond, loop *l, int *post)
{
	cond = strip(cond);
	CXCursor side = cond, bound = clang_getNullCursor();
	enum CXBinaryOperatorKind rel = CXBinaryOperator_NE;
	kids kk = {0};
	if (kind(cond) == CXCursor_BinaryOperator) {
		rel = clang_getCursorBinaryOperatorKind(cond);
		kids_of(cond, &kk);
		if (rel < CXBinaryOperator_LT || rel > CXBinaryOperator_NE || rel == CXBinaryOperator_EQ || kk.n != 2) {
			kids_free(&kk);
			return -1;
		}
		side = strip(kk.c[0]);
		bound = kk.c[1];
	}
	int ret = -1;
	if (kind(side) == CXCursor_UnaryOperator) {
		enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(side);
		kids sk = {0};
		kids_of(side, &sk);
		CXCursor d = sk.n == 1 ? named_decl(sk.c[0]) : clang_getNullCursor();
		CXType t = clang_Cursor_isNull(d) ? (CXType){0} : clang_getCanonicalType(clang_getCursorType(d));
		int integral = !clang_Cursor_isNull(d) && ((t.kind >= CXType_Bool && t.kind <= CXType_Int128) ||
							  t.kind == CXType_Enum);
		int dec = op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec;
		int inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
		if (integral && (dec || inc) && loop_var_of(w, d) < 0 && (dec || !clang_Cursor_isNull(bound))) {
			refs r = {0};
			int self = 0;
			if (!clang_Cursor_isNull(bound)) {
				refs_of(bound, &r);
				for (int i = 0; i < r.n; i++)
					self |= clang_equalCursors(r.d[i], d);
			}
			if (!self && (clang_Cursor_isNull(bound) ? (poly_set_si(l->B, 0, w->s->ctx), 0)
								 : expr_poly(w, bound, l->B)) == 0) {
				l->decl = d;
				l->step = dec ? -1 : 1;
				l->rel = rel;
				l->bound = clang_Cursor_isNull(bound) ? side : bound;
				*post = op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PostInc;
				ret = 0;
			}
		}
		kids_free(&sk);
	}
	kids_free(&kk);
	return ret;
}

/* Turns a loop that cond_update() recognised, whose first value l->L is
 * known, into one count_loop() counts: the body of `while (n--)` sees
 * n - 1; `while (--n)` tests n - 1 first; `do ... while (n--)` goes on
 * while the value it ran with passes the test. */
static void cond_update_adjust(W *w, loop *l, int post, int is_do)
{
	if (is_do && post)
		poly_add_si(l->B, l->B, l->step, w->s->ctx);
	else if (!is_do && post)
		l->pre_step = 1;
	else if (!is_do)
		poly_add_si(l->L, l->L, l->step, w->s->ctx);
}

/* Whether E is a test: a comparison, !, && or ||. */
static int is_test(CXCursor e)
{
	e = strip(e);
	if (kind(e) == CXCursor_UnaryOperator)
		return clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_LNot;
	if (kind(e) != CXCursor_BinaryOperator)
		return 0;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
	return (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE) || op == CXBinaryOperator_LAnd ||
	       op == CXBinaryOperator_LOr;
}

/* Which of a for header's N children H (a null part has none) are its
 * init, condition and increment, by their kinds: for a header whose
 * semicolons cannot be found (it comes from a macro).  Parts it cannot
 * tell apart are left null. */
static void for_parts(const CXCursor *h, int n, CXCursor *init, CXCursor *cond, CXCursor *inc)
{
	if (n == 3) {
		*init = h[0];
		*cond = h[1];
		*inc = h[2];
		return;
	}
	int i = 0;
	if (i < n && (kind(h[i]) == CXCursor_DeclStmt || (n == 2 && !is_test(h[i]) && is_test(h[i + 1]))))
		*init = h[i++];
	if (i < n && is_test(h[i]))
		*cond = h[i++];
	if (i < n && !clang_Cursor_isNull(update_target(h[i])) && (i > 0 || n == 2))
		*inc = h[i++];
}

/* `for (i = a, j = b; i < j; i++, j--)`: the bound of the loop L is a
 * variable the increment's other update UK[k] (k != IND) moves toward it
 * by a constant, from a first value the init (the pairs IK) gives.  The
 * two meet after floor((b - a - 1) / (si - sj)) + 1 iterations: the bound
 * becomes i <= a + si * that - si, and j one more update of the body.
 * Returns 0 (L rewritten, or left as it was when this is not such a loop). */
static int two_ends(W *w, CXCursor at, loop *l, const kids *uk, int ind, const kids *ik)
{
	sym_ctx *s = w->s;
	CXCursor jd = named_decl(l->bound);
	if (clang_Cursor_isNull(jd) || !clang_Cursor_isNull(l->offset) || l->nextra || l->vals)
		return 0;
	loop lj;
	loop_init(w, &lj);
	lj.decl = jd;
	int found = 0;
	for (int k = 0; k < uk->n && !found; k++)
		found = k != ind && loop_step(w, uk->c[k], &lj) == 0;
	CXCursor init = clang_getNullCursor();
	for (int i = 0; i + 1 < ik->n && found; i += 2)
		if (clang_equalCursors(ik->c[i], jd))
			init = ik->c[i + 1];
	long si = l->step, sj = lj.step, d = 0;
	enum CXBinaryOperatorKind rel = l->rel == CXBinaryOperator_NE ? (si > 0 ? CXBinaryOperator_LT : CXBinaryOperator_GT)
								       : l->rel;
	if (found && !clang_Cursor_isNull(init) && expr_poly(w, init, lj.L) == 0) {
		if (si > 0 && sj < 0 && (rel == CXBinaryOperator_LT || rel == CXBinaryOperator_LE))
			d = si - sj;
		else if (si < 0 && sj > 0 && (rel == CXBinaryOperator_GT || rel == CXBinaryOperator_GE))
			d = sj - si;
	}
	if (d > 0) {
		/* iterations k = 0..K while L + si k REL Lj + sj k: d k < |Lj - L| (<=) */
		poly_t num, K;
		poly_init(num, s->ctx);
		poly_init(K, s->ctx);
		if (si > 0)
			poly_sub(num, lj.L, l->L, s->ctx);
		else
			poly_sub(num, l->L, lj.L, s->ctx);
		if (rel == CXBinaryOperator_LT || rel == CXBinaryOperator_GT)
			poly_sub_ui(num, num, 1, s->ctx);
		fmpz_t dz;
		fmpz_init_set_si(dz, d);
		if (sym_floor(s, K, num, dz) == 0) {
			poly_scalar_mul_si(K, K, si, s->ctx);
			poly_add(l->B, l->L, K, s->ctx);
			l->rel = si > 0 ? CXBinaryOperator_LE : CXBinaryOperator_GE;
			l->bound = init; /* the variables that must keep their values: those of j's first value */
			char *a = spelling(l->decl), *b = spelling(jd);
			note(w, at, "'%s' and '%s' move toward each other: counted until they meet", a, b);
			free(a);
			free(b);
		}
		fmpz_clear(dz);
		poly_clear(num, s->ctx);
		poly_clear(K, s->ctx);
	}
	loop_clear(w, &lj);
	return 0;
}

static int for_loop(W *w, CXCursor c, epi_counts *out)
{
	sym_ctx *s = w->s;
	kids kk = {0}, bk = {0}, ik = {0}, uk = {0};
	kids_of(c, &kk);
	int ret = 0;
	loop l;
	loop_init(w, &l);
	CXCursor body = kk.c[kk.n - 1];
	/* which children are init, condition and increment: by the header's semicolons */
	CXSourceRange hdr = clang_getRange(clang_getCursorLocation(c), clang_getRangeStart(clang_getCursorExtent(body)));
	CXToken *toks;
	unsigned ntok;
	clang_tokenize(w->tu, hdr, &toks, &ntok);
	unsigned semi[2] = {0, 0};
	int nsemi = 0, depth = 0;
	for (unsigned i = 0; i < ntok && nsemi < 2; i++) {
		CXString sp = clang_getTokenSpelling(w->tu, toks[i]);
		const char *t = clang_getCString(sp);
		if (!strcmp(t, "("))
			depth++;
		else if (!strcmp(t, ")"))
			depth--;
		else if (!strcmp(t, ";") && depth == 1)
			semi[nsemi++] = offset_of(clang_getTokenLocation(w->tu, toks[i]));
		clang_disposeString(sp);
	}
	clang_disposeTokens(w->tu, toks, ntok);
	CXCursor init = clang_getNullCursor(), cond = clang_getNullCursor(), inc = clang_getNullCursor();
	for (int i = 0; i + 1 < kk.n && nsemi == 2; i++) {
		unsigned off = offset_of(clang_getRangeStart(clang_getCursorExtent(kk.c[i])));
		if (off < semi[0])
			init = kk.c[i];
		else if (off < semi[1])
			cond = kk.c[i];
		else
			inc = kk.c[i];
	}
	if (nsemi != 2 || from_macro(c)) { /* a header from a macro: its tokens are elsewhere */
		init = cond = inc = clang_getNullCursor();
		for_parts(kk.c, kk.n - 1, &init, &cond, &inc);
	}
	/* the init runs once, outside the iterations; ik: the variables it
	 * gives a value (x = e, or a declaration's x = e) and their values,
	 * in pairs */
	if (!clang_Cursor_isNull(init)) {
		if (kind(init) == CXCursor_DeclStmt) {
			kids dk = {0};
			kids_of(init, &dk);
			for (int i = 0; i < dk.n; i++) {
				if (kind(dk.c[i]) != CXCursor_VarDecl)
					continue;
				kids vk = {0};
				kids_of(dk.c[i], &vk);
				if (vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1]))) {
					kid_visit(dk.c[i], c, &ik);
					kid_visit(vk.c[vk.n - 1], c, &ik);
				}
				kids_free(&vk);
			}
			kids_free(&dk);
			ret = stmt(w, init, out);
		} else {
			kids parts = {0};
			op_parts(init, CXBinaryOperator_Comma, &parts);
			for (int i = 0; i < parts.n; i++) {
				CXCursor si = strip(parts.c[i]);
				kids ak = {0};
				kids_of(si, &ak);
				if (kind(si) == CXCursor_BinaryOperator &&
				    clang_getCursorBinaryOperatorKind(si) == CXBinaryOperator_Assign && ak.n == 2 &&
				    !clang_Cursor_isNull(named_decl(ak.c[0]))) {
					kid_visit(named_decl(ak.c[0]), c, &ik);
					kid_visit(ak.c[1], c, &ik);
				}
				kids_free(&ak);
			}
			kids_free(&parts);
			ret = rval(w, init, out);
		}
	}
	if (ret)
		goto out;
	poly_t T;
	poly_init(T, s->ctx);
	int given = given_trip(w, c, T);
	/* the induction variable: the one an update of the increment changes by
	 * a constant and the condition bounds; the increment's other updates
	 * (i++, p++) are counted as statements at the end of the body */
	int ind = -1, geo = 0, post = -1;
	/* a step that is no constant, its variable, bound and relation */
	CXCursor vstep = clang_getNullCursor(), vdecl = clang_getNullCursor(), vbound = clang_getNullCursor();
	enum CXBinaryOperatorKind vrel = CXBinaryOperator_Invalid;
	if (!clang_Cursor_isNull(inc))
		op_parts(inc, CXBinaryOperator_Comma, &uk);
	/* a point loop of a tile loop around (tile_of) */
	const struct tile *pt = NULL;
	CXCursor pend = clang_getNullCursor();
	if (w->ntile && !given && !clang_Cursor_isNull(cond) &&
	    !(pt = point_loop(w, init, cond, &uk, &l, &ind, &pend))) {
		loop_clear(w, &l);
		loop_init(w, &l);
	}
	for (int i = 0; i < uk.n && ind < 0 && !given && !clang_Cursor_isNull(cond); i++) {
		CXCursor d = update_target(uk.c[i]);
		if (clang_Cursor_isNull(d) || loop_var_of(w, d) >= 0)
			continue;
		loop_clear(w, &l);
		loop_init(w, &l);
		l.decl = d;
		if (loop_cond(w, cond, &l) == 0 && loop_step(w, uk.c[i], &l) == 0)
			ind = i;
		else if (!clang_Cursor_isNull(l.bound) && loop_step_geo(w, uk.c[i], &l) == 0)
			ind = i, geo = 1;
		else if (!clang_Cursor_isNull(l.bound) && !clang_Cursor_isNull(l.vstep) && clang_Cursor_isNull(vstep))
			vstep = l.vstep, vdecl = d, vbound = l.bound, vrel = l.rel;
	}
	/* no increment: the condition may update its variable, for (i = n; i--;) */
	if (ind < 0 && !given && uk.n == 0 && !clang_Cursor_isNull(cond)) {
		loop_clear(w, &l);
		loop_init(w, &l);
		if (cond_update(w, cond, &l, &post) == 0)
			ind = -2;
		else
			post = -1;
	}
	CXCursor init_expr = clang_getNullCursor();
	for (int i = 0; i + 1 < ik.n && (ind >= 0 || post >= 0) && !pt; i += 2)
		if (clang_equalCursors(ik.c[i], l.decl))
			init_expr = ik.c[i + 1];
	/* a condition that is a constant (evaluated only when no other reading fits) */
	int truth = !given && ind == -1 ? const_truth(cond) : 0;
	if (given < 0) {
		ret = -1;
	} else if (given) {
		ret = count_given(w, c, body, T, NULL, out);
	} else if (pt && !pt->full) {
		/* a point loop while its tile loop's iterations are counted:
		 * none here, the whole range once apart (tile_of) */
	} else if (pt) {
		l.scoped = kind(init) == CXCursor_DeclStmt;
		iteration_stmts(&l, body, &bk);
		for (int i = 0; i < uk.n; i++)
			if (i != ind)
				kid_visit(uk.c[i], c, &bk);
		ret = count_bounded(w, c, &l, bk.c, bk.n, -1, 0, out);
	} else if (truth < 0) {
		/* for (...; 0; ...): the init alone runs */
	} else if (truth > 0) {
		ret = unsupported(w, c, "its condition always holds: something in its body ends it");
	} else if (clang_Cursor_isNull(inc) && post < 0) {
		/* for (i = 0; i < n;) with the update in the body */
		ret = body_update_loop(w, c, cond, body, 0, &ik, out);
	} else if (ind == -1) {
		refs r = {0};
		refs_of(cond, &r);
		int v = -1;
		for (int i = 0; i < r.n && v < 0; i++) {
			/* the variables the increment updates are this loop's own */
			int own = 0;
			for (int k = 0; k < uk.n && !own; k++) {
				CXCursor d = update_target(uk.c[k]);
				own = !clang_Cursor_isNull(d) && clang_equalCursors(d, r.d[i]);
			}
			if (!own && loop_var_of(w, r.d[i]) < 0 && varies(w, r.d[i]))
				v = i;
		}
		char why[300];
		char *mem = v < 0 ? memory_read(w, cond) : NULL;
		if (v >= 0) {
			char *nm = spelling(r.d[v]);
			snprintf(why, sizeof why, "its condition reads '%s', which a loop around it changes", nm);
			free(nm);
		} else if (mem) {
			snprintf(why, sizeof why, "its condition reads memory ('%s'): the trip count follows the data", mem);
			free(mem);
		} else if (!clang_Cursor_isNull(vstep)) {
			/* a tile loop maybe, whose point loops trip_fallback counts */
			w->tc = (struct tile){.at = c, .decl = vdecl, .step = vstep, .bound = vbound,
					      .lo = clang_getNullCursor()};
			for (int i = 0; i + 1 < ik.n; i += 2)
				if (clang_equalCursors(ik.c[i], vdecl))
					w->tc.lo = ik.c[i + 1];
			if (vrel != CXBinaryOperator_LT)
				w->tc.at = clang_getNullCursor();
			char *nm = spelling(vdecl), *st = expr_text(w, vstep);
			snprintf(why, sizeof why, "'%s' steps by '%s', which is no constant: its trip count, a quotient "
				 "by it rounded up, is no polynomial", nm, st);
			free(nm);
			free(st);
		} else if ((mem = member_update(w, &uk)) != NULL) {
			snprintf(why, sizeof why, "its counter '%s' is a member of a structure: loops are counted by a "
				 "plain variable's steps", mem);
			free(mem);
		} else {
			snprintf(why, sizeof why, "the condition is not 'var < bound' (<, <=, >, >=, !=) with an affine bound "
				 "on a variable the increment changes by a constant (++, --, += c, -= c, var = var + c)");
		}
		ret = unsupported(w, c, why);
	} else if (!clang_Cursor_isNull(init_expr) ? bound_poly(w, init_expr, l.L) < 0 &&
							 minmax(w, init_expr, l.L, l.L2, &l.alt_l) < 0
						       : 0) {
		ret = unsupported(w, c, "the initial value is not affine in the parameters and outer loop variables");
	} else if (clang_Cursor_isNull(init_expr) && (ret = prior_value(w, c, &l)) != 0) {
		/* unsupported, or an error */
	} else if (geo && (ret = geo_values(w, c, &l, 0)) != 0) {
		/* unsupported */
	} else {
		l.scoped = !clang_Cursor_isNull(init) && kind(init) == CXCursor_DeclStmt && !clang_Cursor_isNull(init_expr);
		if (ind >= 0)
			two_ends(w, c, &l, &uk, ind, &ik);
		if (post >= 0)
			cond_update_adjust(w, &l, post, 0);
		iteration_stmts(&l, body, &bk);
		for (int i = 0; i < uk.n; i++)
			if (i != ind)
				kid_visit(uk.c[i], c, &bk);
		/* the increment's other updates move variables no inner bound may take as parameters */
		int vary = uk.n > 1 && w->nvary < MAXDEPTH;
		if (vary)
			w->vary[w->nvary++] = inc;
		if (!l.alt_l)
			break_bound(w, &l, bk.c, bk.n);
		if (!clang_Cursor_isNull(l.brk))
			ret = count_breaking(w, c, &l, bk.c, bk.n, out);
		else
			ret = count_bounded(w, c, &l, bk.c, bk.n, -1, 0, out);
		if (vary)
			w->nvary--;
	}
	poly_clear(T, s->ctx);
out:
	loop_clear(w, &l);
	kids_free(&kk);
	kids_free(&bk);
	kids_free(&ik);
	kids_free(&uk);
	return ret;
}

/* while (cond) body / do body while (cond): one induction variable updated
 * by one top-level statement of the body, its first value assigned before. */
static int while_loop(W *w, CXCursor c, int is_do, epi_counts *out)
{
	sym_ctx *s = w->s;
	kids kk = {0}, bk = {0};
	kids_of(c, &kk);
	int ret = 0;
	loop l;
	loop_init(w, &l);
	CXCursor cond = is_do ? kk.c[kk.n - 1] : kk.c[0];
	CXCursor body = is_do ? kk.c[0] : kk.c[kk.n - 1];
	poly_t T;
	poly_init(T, s->ctx);
	int given = given_trip(w, c, T);
	if (given < 0) {
		ret = -1;
		goto out;
	}
	if (given) {
		ret = count_given(w, c, body, T, NULL, out);
		goto out;
	}
	if (kk.n != 2) {
		ret = unsupported(w, c, "the condition is not 'var < bound' (<, <=, >, >=, !=) with an affine bound");
		goto out;
	}
	int post;
	if (cond_update(w, cond, &l, &post) == 0) {
		/* while (n--), do ... while (--n): the condition is the update */
		body_stmts(body, &bk);
		ret = prior_value(w, c, &l);
		if (ret == 0) {
			cond_update_adjust(w, &l, post, is_do);
			ret = count_bounded(w, c, &l, bk.c, bk.n, -1, is_do, out);
		}
		goto out;
	}
	ret = body_update_loop(w, c, cond, body, is_do, NULL, out);
out:
	poly_clear(T, s->ctx);
	loop_clear(w, &l);
	kids_free(&kk);
	kids_free(&bk);
	return ret;
}

/* The loop C with condition COND and BODY (a while, a do, a for with no
 * increment) whose induction variable one statement of the body updates;
 * its first value from the pairs IK of a for's init (may be NULL), else
 * from before the loop. */
static int body_update_loop(W *w, CXCursor c, CXCursor cond, CXCursor body, int is_do, const kids *ik,
			    epi_counts *out)
{
	int ret = 0;
	kids bk = {0};
	loop l;
	loop_init(w, &l);
	int truth = const_truth(cond);
	if (truth < 0 && !is_do)
		goto out; /* while (0): never runs */
	if (truth > 0) {
		ret = unsupported(w, c, "its condition always holds: something in its body ends it");
		goto out;
	}
	if (loop_cond(w, cond, &l) < 0) {
		char *mem = memory_read(w, cond), why[300];
		snprintf(why, sizeof why, mem ? "its condition reads memory ('%s'): the trip count follows the data"
					      : "the condition is not 'var < bound' (<, <=, >, >=, !=) with an affine bound%s",
			 mem ? mem : "");
		free(mem);
		ret = unsupported(w, c, why);
		goto out;
	}
	iteration_stmts(&l, body, &bk);
	int upd = -1, geo = 0, nwrites = 0;
	for (int i = 0; i < bk.n; i++) {
		if (!writes(bk.c[i], l.decl, NULL))
			continue;
		nwrites++;
		if (upd < 0 && loop_step(w, bk.c[i], &l) < 0 && loop_step_geo(w, bk.c[i], &l) == 0)
			geo = 1;
		else if (upd >= 0 || loop_step(w, bk.c[i], &l) < 0) {
			upd = -2;
			break;
		}
		upd = i;
	}
	if (upd < 0 && nwrites == 1 && !clang_Cursor_isNull(l.vstep)) {
		char *nm = spelling(l.decl), *st = expr_text(w, l.vstep), why[300];
		snprintf(why, sizeof why, "'%s' steps by '%s', which is no constant: its trip count, a quotient by it "
			 "rounded up, is no polynomial", nm, st);
		free(nm);
		free(st);
		ret = unsupported(w, c, why);
		goto out;
	}
	if (upd < 0) {
		ret = unsupported(w, c, "its variable is not updated by exactly one statement (++, --, += c, -= c) of the body");
		goto out;
	}
	CXCursor init = clang_getNullCursor();
	for (int i = 0; ik && i + 1 < ik->n; i += 2)
		if (clang_equalCursors(ik->c[i], l.decl))
			init = ik->c[i + 1];
	if (!clang_Cursor_isNull(init))
		ret = expr_poly(w, init, l.L) < 0
			      ? unsupported(w, c, "the initial value is not affine in the parameters and outer loop variables")
			      : 0;
	else
		ret = prior_value(w, c, &l);
	if (ret == 0 && geo)
		ret = geo_values(w, c, &l, is_do);
	if (ret == 0)
		ret = count_bounded(w, c, &l, bk.c, bk.n, upd, is_do, out);
out:
	loop_clear(w, &l);
	kids_free(&bk);
	return ret;
}

/* The counts a nest's region keeps: all but the loops' work sums. */
static int nest_key(const char *key)
{
	const char *sum = key[0] == '%' ? strrchr(key, '/') : NULL;
	return !sum || strcmp(sum, "/iter") == 0 || strcmp(sum, "/entry") == 0;
}

/* Records a top-level loop nest of the current function as a region. */
static void add_region(W *w, enum epi_scope sc, CXCursor at, const char *func, const epi_counts *c)
{
	epi_analysis *a = w->a;
	int f = (int)(w->cur - w->fns);
	if (f < w->own_lo || f >= w->own_hi || w->spec)
		return; /* a callee of this chunk's functions: its own chunk records it */
	a->regions = xrealloc(a->regions, (a->nregions + 1) * sizeof *a->regions);
	epi_region *r = &a->regions[a->nregions++];
	r->scope = sc;
	r->file = xstrdup(w->filename);
	r->line = line_of(at);
	r->function = xstrdup(func);
	r->formula = r->cond = NULL;
	counts_init(&r->counts);
	/* of the loops' own counts (tag_loops) a nest's runs need the entries
	 * and iterations; their work sums are read from the total alone */
	if (sc == EPI_SCOPE_LOOP)
		counts_add_if(w->s, &r->counts, c, nest_key);
	else
		counts_set(w->s, &r->counts, c);
}

void epi_region_drop(sym_ctx *s, epi_region *r, const char *prefix)
{
	size_t n = strlen(prefix);
	int k = 0;
	for (int i = 0; i < r->counts.n; i++) {
		int drop = strncmp(r->counts.key[i], prefix, n) == 0;
		if (r->formula && drop) {
			free(r->formula[i]);
			free(r->cond[i]);
		} else if (r->formula) {
			r->formula[k] = r->formula[i];
			r->cond[k] = r->cond[i];
		}
		k += !drop;
	}
	counts_drop(s, &r->counts, prefix);
}

void cf_region_free(sym_ctx *s, epi_region *r)
{
	for (int i = 0; r->formula && i < r->counts.n; i++) {
		free(r->formula[i]);
		free(r->cond[i]);
	}
	free(r->formula);
	free(r->cond);
	free(r->file);
	free(r->function);
	counts_clear(s, &r->counts);
}

/* A switch as a branch among its entry points: each case label (and default,
 * or "no case matches" without one) runs the statements from the label to the
 * next break at the top of the body, falling through other labels; every
 * entry is taken as equally likely.  A case that can leave otherwise (a
 * break inside an if, return, goto, continue) runs to its break at the
 * most, and at the least to the statement that can leave. */
static int switch_stmt(W *w, CXCursor c, epi_counts *out)
{
	sym_ctx *s = w->s;
	kids kk = {0}, bk = {0};
	kids_of(c, &kk);
	int ret = kk.n >= 1 ? rval(w, kk.c[0], out) : 0;
	if (ret || kk.n < 2) {
		kids_free(&kk);
		return ret;
	}
	body_stmts(kk.c[kk.n - 1], &bk);
	/* items: the statements under the labels; entry[i]: a label starts at item i */
	CXCursor *item = xmalloc((bk.n + 1) * sizeof *item);
	int *entry = xcalloc(bk.n + 1, sizeof *entry);
	int n = 0, has_default = 0;
	for (int i = 0; i < bk.n; i++) {
		CXCursor x = bk.c[i];
		while (kind(x) == CXCursor_CaseStmt || kind(x) == CXCursor_DefaultStmt) {
			has_default |= kind(x) == CXCursor_DefaultStmt;
			entry[n]++; /* stacked labels: each is an entry of its own */
			kids lk = {0};
			kids_of(x, &lk);
			CXCursor sub = lk.n ? lk.c[lk.n - 1] : clang_getNullCursor();
			kids_free(&lk);
			if (clang_Cursor_isNull(sub))
				break;
			x = sub;
		}
		if (kind(x) == CXCursor_CaseStmt || kind(x) == CXCursor_DefaultStmt)
			continue;
		item[n++] = x;
	}
	{
		CXCursor *sib = w->sib;
		w->sib = NULL;
		epi_counts acc, path, tmp, least;
		counts_init(&acc);
		counts_init(&path);
		counts_init(&tmp);
		counts_init(&least);
		int npaths = 0;
		for (int e = 0; e <= n && ret == 0; e++) {
			int entries = e < n ? entry[e] : !has_default; /* the last: no case matches */
			if (!entries)
				continue;
			counts_clear(s, &path);
			/* a statement that can leave the switch (a break in an if, a
			 * return): the path is cut short there at the least */
			int cut = 0;
			for (int i = e; i < n && ret == 0 && kind(item[i]) != CXCursor_BreakStmt; i++) {
				ret = stmt(w, item[i], &path);
				CXCursor at;
				const char *what;
				if (ret == 0 && !cut && escapes(item[i], &at, &what)) {
					cut = 1;
					counts_set(s, &least, &path);
					note(w, at, "'%s' can leave a case of the switch at line %d early: its minimum counts stop "
						    "there", what, line_of(c));
				}
			}
			if (ret == 0 && cut) {
				counts_clear(s, &tmp);
				counts_cut(s, &tmp, &path, &least);
				counts_set(s, &path, &tmp);
			}
			for (int k = 0; k < entries && ret == 0; k++) {
				npaths++;
				if (npaths == 1) {
					counts_set(s, &acc, &path);
					continue;
				}
				/* the running average over npaths equally likely paths */
				fmpq_t p;
				fmpq_init(p);
				fmpq_set_si(p, 1, npaths);
				counts_clear(s, &tmp);
				counts_branch(s, &tmp, &path, &acc, p);
				counts_set(s, &acc, &tmp);
				fmpq_clear(p);
			}
		}
		if (ret == 0)
			counts_add(s, out, &acc);
		counts_clear(s, &acc);
		counts_clear(s, &path);
		counts_clear(s, &tmp);
		counts_clear(s, &least);
		w->sib = sib;
	}
	free(item);
	free(entry);
	kids_free(&kk);
	kids_free(&bk);
	return ret;
}

static int stmt(W *w, CXCursor c, epi_counts *out)
{
	enum CXCursorKind k = kind(c);
	kids kk = {0};
	int ret = 0;
	switch (k) {
	case CXCursor_CompoundStmt: {
		kids_of(c, &kk);
		CXCursor *sib = w->sib;
		int nsib = w->nsib, isib = w->isib;
		for (int i = 0; i < kk.n && ret == 0; i++) {
			w->sib = kk.c;
			w->nsib = kk.n;
			w->isib = i;
			ret = stmt(w, kk.c[i], out);
		}
		w->sib = sib;
		w->nsib = nsib;
		w->isib = isib;
		break;
	}
	case CXCursor_DoStmt:
		if (is_once(c)) { /* the body, once, as any block */
			ret = stmt(w, loop_body(c), out);
			break;
		}
		/* fall through */
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt: {
		epi_counts lc;
		counts_init(&lc);
		int top = w->loopdepth == 0, outer_loop = w->loop_line, tag = w->o->tag_loops ? loop_tag(w, c) : 0;
		if (top)
			w->tag_line = line_of(c);
		if (w->o->tag_loops)
			w->loop_line = tag;
		/* the calls the compiled code moved out of this loop, once per entry */
		epi_counts hc;
		counts_init(&hc);
		int hoisting = w->o->nhoisted_calls && w->nhoist < MAXDEPTH;
		if (hoisting) {
			w->hoist_line[w->nhoist] = line_of(c);
			w->hoist[w->nhoist++] = &hc;
		}
		if (k == CXCursor_ForStmt)
			ret = for_loop(w, c, &lc);
		else
			ret = while_loop(w, c, k == CXCursor_DoStmt, &lc);
		if (top)
			w->tag_line = 0;
		if (ret == UNCOUNTED) {
			/* counted by a trip count instead, with what the loop's
			 * header counted so far (a for's init) */
			if (top)
				w->tag_line = line_of(c);
			counts_clear(w->s, &hc);
			counts_init(&hc);
			ret = trip_fallback(w, c, &lc);
			if (top)
				w->tag_line = 0;
		}
		if (hoisting) {
			w->nhoist--;
			if (ret == 0)
				counts_add(w->s, &lc, &hc);
		}
		counts_clear(w->s, &hc);
		w->loop_line = outer_loop;
		if (ret == 0 && w->o->tag_loops && tag) {
			char ek[32];
			snprintf(ek, sizeof ek, "%%%d/entry", tag);
			counts_add_si(w->s, &lc, ek, 1);
			/* a nest whose iterations write the same places (for
			 * first writes of fresh memory: the first iteration's) */
			if (top && repeats_places(c)) {
				snprintf(ek, sizeof ek, "%%%d/same", tag);
				counts_add_si(w->s, &lc, ek, 1);
			}
		}
		if (ret == 0) {
			if (top)
				add_region(w, EPI_SCOPE_LOOP, c, w->cur->name, &lc);
			counts_add(w->s, out, &lc);
		}
		counts_clear(w->s, &lc);
		break;
	}
	case CXCursor_IfStmt:
		kids_of(c, &kk);
		if (kk.n >= 2) {
			ret = rval(w, kk.c[0], out);
			if (ret == 0 && !affine_if(w, kk.c[0], kk.c[1], kk.n >= 3 ? kk.c[2] : clang_getNullCursor(), out, &ret))
				ret = branch(w, kk.c[1], kk.n >= 3 ? kk.c[2] : clang_getNullCursor(), out, 1);
		}
		break;
	case CXCursor_DeclStmt:
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && ret == 0; i++) {
			if (kind(kk.c[i]) != CXCursor_VarDecl)
				continue;
			kids vk = {0};
			kids_of(kk.c[i], &vk);
			if (vk.n >= 1 && clang_isExpression(kind(vk.c[vk.n - 1])))
				ret = rval(w, vk.c[vk.n - 1], out);
			kids_free(&vk);
		}
		break;
	case CXCursor_UnexposedStmt: /* an attributed statement (see attributed) */
	case CXCursor_ReturnStmt:
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && ret == 0; i++)
			ret = clang_isExpression(kind(kk.c[i])) ? rval(w, kk.c[i], out) : stmt(w, kk.c[i], out);
		break;
	case CXCursor_SwitchStmt:
		ret = switch_stmt(w, c, out);
		break;
	case CXCursor_GotoStmt: {
		/* a jump back makes a loop no statement shows */
		kids_of(c, &kk);
		CXCursor label = kk.n == 1 ? clang_getCursorReferenced(kk.c[0]) : clang_getNullCursor();
		if (!clang_Cursor_isNull(label) && kind(label) == CXCursor_LabelStmt && line_of(label) <= line_of(c))
			note(w, c, "this goto jumps back to line %d, a loop that is not counted: the statements in between "
				    "count once", line_of(label));
		break;
	}
	case CXCursor_IndirectGotoStmt:
		/* goto *p: where it lands is a value of the run, so a jump
		 * back (an interpreter's dispatch) is a loop no statement shows */
		kids_of(c, &kk);
		for (int i = 0; i < kk.n && ret == 0; i++)
			if (clang_isExpression(kind(kk.c[i])))
				ret = rval(w, kk.c[i], out);
		note(w, c, "this goto jumps to a computed label: a loop its jumps back make is not counted, the "
			   "statements in between count once");
		break;
	case CXCursor_GCCAsmStmt:
		note(w, c, "inline assembly: its instructions are not counted (the compiled-code model prices them)");
		break;
	case CXCursor_NullStmt:
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		break;
	default:
		if (clang_isExpression(k)) {
			ret = rval(w, c, out);
		} else {
			CXString sp = clang_getCursorKindSpelling(k);
			note(w, c, "a statement of a kind not counted (%s): its work is left out", clang_getCString(sp));
			clang_disposeString(sp);
		}
	}
	kids_free(&kk);
	return ret;
}

/* Counts the top-level statement J of F's body.  When no caller is waiting
 * for F, every live count is known here: symbols are collected first, and a
 * statement that ran out of symbols is counted again in a wider table. */
static int top_stmt(W *w, fn *f, CXCursor *body, int n, int j, const CXCursor *guards, int nguards)
{
	epi_analysis *a = w->a;
	for (;;) {
		int top = w->fndepth == 1;
		if (top)
			cf_collect_symbols(w, &f->counts);
		int nerrors = a->nerrors, nnotes = a->nnotes, nregions = a->nregions, analyzed = w->analyzed;
		int nfallback = w->nfallback;
		w->s->full = 0;
		w->sib = body;
		w->nsib = n;
		w->isib = j;
		epi_counts st;
		counts_init(&st);
		int ret = stmt(w, body[j], &st);
		int retry = (ret == 0 ? w->nfallback > nfallback : ret == -1) && top && w->s->full &&
			    w->analyzed == analyzed && w->s->cap < SYM_MAXVARS;
		if (!retry) {
			/* after guards that returned: only where none held */
			for (int g = 0; g < nguards && ret == 0; g++) {
				poly_struct nc[MAXGUARDC];
				int k = 0;
				if (guard_nots(w, guards[g], nc, &k, MAXGUARDC) == 0)
					while (k > 0) {
						counts_restrict(w->s, &st, &nc[--k]);
						poly_clear(&nc[k], w->s->ctx);
					}
			}
			counts_add(w->s, &f->counts, &st);
			counts_clear(w->s, &st);
			return ret;
		}
		/* forget what the attempt recorded, widen the table, count again */
		counts_clear(w->s, &st);
		while (a->nerrors > nerrors)
			free(a->errors[--a->nerrors]);
		while (a->nnotes > nnotes)
			free(a->notes[--a->nnotes]);
		while (a->nregions > nregions)
			cf_region_free(w->s, &a->regions[--a->nregions]);
		grow_symbols(w);
	}
}

/* The loops around a call (W's loop variables, the loops counted without
 * one, the pinned values, the hoisted calls, the loops' statements), kept
 * while the callee is analysed. */
typedef struct around {
	CXCursor lvdecl[MAXDEPTH], lvstmt[MAXDEPTH], vary[MAXDEPTH], pin_decl[MAXDEPTH], loopstmt[MAXDEPTH];
	int lvvar[MAXDEPTH], hoist_line[MAXDEPTH];
	long pin_val[MAXDEPTH];
	epi_counts *hoist[MAXDEPTH];
} around;

/* Copies the loops around a call between W and A: into A when KEEP, back
 * into W otherwise (W's counts restored first). */
static void copy_around(W *w, around *a, int keep)
{
#define AROUND(f, n) memcpy(keep ? (void *)a->f : (void *)w->f, keep ? (const void *)w->f : (const void *)a->f, \
			    (size_t)(n) * sizeof *a->f)
	AROUND(lvdecl, w->nlv);
	AROUND(lvstmt, w->nlv);
	AROUND(lvvar, w->nlv);
	AROUND(vary, w->nvary);
	AROUND(pin_decl, w->npin);
	AROUND(pin_val, w->npin);
	AROUND(hoist_line, w->nhoist);
	AROUND(hoist, w->nhoist);
	AROUND(loopstmt, w->loopdepth < MAXDEPTH ? w->loopdepth : MAXDEPTH);
#undef AROUND
}

static around *keep_around(W *w)
{
	around *a = xmalloc(sizeof *a);
	copy_around(w, a, 1);
	return a;
}

/* Puts back what keep_around() kept, and frees it. */
static void restore_around(W *w, around *a)
{
	copy_around(w, a, 0);
	free(a);
}

/* Marks the --trip options and pragmas that name the loop C, whether or
 * not the walk reaches it (a case of a switch that is not modelled). */
static enum CXChildVisitResult mark_visit(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	W *w = d;
	if (is_loop_stmt(c)) {
		int nth = 0;
		find_trip(w, c, 0, &nth);
		find_pragma(w, c, 1);
	}
	return CXChildVisit_Recurse;
}

int cf_analyze_fn(W *w, fn *f)
{
	if (f->blank) { /* the thread parses the whole file and walks again */
		w->missing = 1;
		return epi_error(w->err, "%s:%d: the body of %s() was not parsed", w->filename, f->line, f->name);
	}
	w->analyzed++;
	fn *saved = w->cur;
	int nlv = w->nlv, depth = w->loopdepth, tag = w->tag_line, nvary = w->nvary, npin = w->npin;
	int loop_line = w->loop_line, nhoist = w->nhoist, foreign = w->foreign;
	/* the loops around the call, whose entries the callee's own loops
	 * take: kept aside (on the heap: call chains run deep) */
	around *keep = keep_around(w);
	CXCursor *sib = w->sib;
	int nsib = w->nsib, isib = w->isib;
	w->cur = f;
	w->foreign = f->header != NULL;
	w->nhoist = 0;
	w->nlv = 0;
	w->nvary = 0;
	/* a walk for one call's constant arguments: its parameters pinned */
	for (int i = 0; i < w->nspec_pin; i++) {
		w->pin_decl[i] = w->spec_decl[i];
		w->pin_val[i] = w->spec_val[i];
	}
	w->npin = w->nspec_pin;
	w->nspec_pin = 0;
	w->loopdepth = 0;
	w->tag_line = 0;
	w->loop_line = 0;
	w->sib = NULL;
	w->nsib = w->isib = 0;
	f->state = 1;
	if (w->o->tag_loops && !w->foreign) {
		char ek[160];
		snprintf(ek, sizeof ek, "%%%s()/entry", f->name);
		counts_add_si(w->s, &f->counts, ek, 1);
	}
	w->fndepth++;
	kids kk = {0}, body = {0};
	kids_of(f->cur, &kk);
	int ret = 0;
	int own = f - w->fns >= w->own_lo && f - w->fns < w->own_hi;
	if (own && (w->o->ntrips || w->npragmas))
		clang_visitChildren(f->cur, mark_visit, w);
	for (int i = 0; i < kk.n && ret == 0; i++) {
		if (kind(kk.c[i]) != CXCursor_CompoundStmt)
			continue;
		/* the body's statements one by one: between them, when no caller
		 * is waiting for this function, every live count is known */
		kids_of(kk.c[i], &body);
		enum { MAXGUARDS = 8 };
		CXCursor guards[MAXGUARDS];
		int nguards = 0;
		for (int j = 0; j < body.n && ret == 0; j++) {
			ret = top_stmt(w, f, body.c, body.n, j, guards, nguards);
			if (ret == 0 && nguards < MAXGUARDS && return_guard(w, body.c[j], &guards[nguards]))
				nguards++;
		}
	}
	w->fndepth--;
	if (w->fndepth == 0)
		clear_finals(w);
	kids_free(&body);
	kids_free(&kk);
	f->state = 2;
	if (ret == 0)
		add_region(w, EPI_SCOPE_FUNCTION, f->cur, f->name, &f->counts);
	w->cur = saved;
	w->nlv = nlv;
	w->nvary = nvary;
	w->npin = npin;
	w->nhoist = nhoist;
	restore_around(w, keep);
	w->loopdepth = depth;
	w->tag_line = tag;
	w->loop_line = loop_line;
	w->foreign = foreign;
	w->sib = sib;
	w->nsib = nsib;
	w->isib = isib;
	return ret;
}

/* Every count kept when no statement is half counted: finished functions',
 * regions', and CURRENT (the function being counted, or NULL).  Sets *N. */
static epi_counts **live_counts(W *w, epi_counts *current, int *n)
{
	int nspecs = 0;
	for (int i = 0; i < w->nfns; i++)
		nspecs += w->fns[i].nspecs;
	epi_counts **live = xmalloc((w->nfns + nspecs + w->a->nregions + w->nfin + 2) * sizeof *live);
	*n = 0;
	for (int i = 0; i < w->nfns; i++) {
		if (w->fns[i].state == 2)
			live[(*n)++] = &w->fns[i].counts;
		for (int k = 0; k < w->fns[i].nspecs; k++)
			live[(*n)++] = &w->fns[i].specs[k].counts;
	}
	for (int i = 0; i < w->a->nregions; i++)
		live[(*n)++] = &w->a->regions[i].counts;
	if (current)
		live[(*n)++] = current;
	for (int i = 0; i < w->nfin; i++)
		live[(*n)++] = &w->fin[i].v;
	return live;
}

static int free_symbols(const sym_ctx *s)
{
	int n = s->cap - s->nvars;
	for (int k = 0; k < s->nvars; k++)
		n += s->kind[k] == SYM_FREE;
	return n;
}

/* At a point where every live count is known (between functions, or between
 * the top-level statements of a function that no other is waiting for):
 * frees the symbols (loop variables, floor terms) that no count uses any
 * more, and widens the symbol table when it is still close to full, so that
 * a long file with many strided loops does not run out of symbols. */
void cf_collect_symbols(W *w, epi_counts *current)
{
	sym_ctx *s = w->s;
	if (free_symbols(s) > s->cap / 4)
		return; /* marking walks every count kept: only when needed */
	int n, used[SYM_MAXVARS] = {0};
	epi_counts **live = live_counts(w, current, &n);
	for (int i = 0; i < n; i++)
		counts_symbols(s, live[i], used);
	sym_collect(s, used);
	free(live);
	if (free_symbols(s) <= s->cap / 4)
		grow_symbols(w);
}

/* Doubles the symbol table (up to SYM_MAXVARS). */
static void grow_symbols(W *w)
{
	sym_grow(w->s, 2 * w->s->cap);
}

/* ---- entry points ----------------------------------------------------- */

void epi_front_opts_init(epi_front_opts *o)
{
	memset(o, 0, sizeof *o);
	fmpq_init(o->branch_prob);
	fmpq_set_si(o->branch_prob, 1, 2);
}

void epi_front_opts_clear(epi_front_opts *o)
{
	fmpq_clear(o->branch_prob);
	for (int i = 0; i < o->ntrips; i++) {
		free(o->trips[i].file);
		free(o->trips[i].expr);
		free(o->trips[i].origin);
	}
	free(o->trips);
	for (int i = 0; i < o->ncalls; i++)
		free(o->calls[i].function);
	free(o->calls);
}

