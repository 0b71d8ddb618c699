/* Models a tiny calculator front end: a string tokenizer and a recursive-descent expression evaluator. */
#include <ctype.h>
#include <string.h>

enum tok_kind { T_NUM, T_IDENT, T_OP, T_LPAREN, T_RPAREN, T_END, T_BAD };

struct token {
	enum tok_kind kind;
	long value;
	char text[16];
};

struct lexer {
	const char *p;
	struct token cur;
};

static void skip_space(struct lexer *lx)
{
	while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n')
		lx->p++;
}

static void next_token(struct lexer *lx)
{
	struct token *t = &lx->cur;
	int n = 0;

	skip_space(lx);
	if (*lx->p == '\0') {
		t->kind = T_END;
		return;
	}
	if (isdigit((unsigned char)*lx->p)) {
		t->kind = T_NUM;
		t->value = 0;
		while (isdigit((unsigned char)*lx->p)) {
			t->value = t->value * 10 + (*lx->p - '0');
			lx->p++;
		}
		return;
	}
	if (isalpha((unsigned char)*lx->p) || *lx->p == '_') {
		t->kind = T_IDENT;
		while ((isalnum((unsigned char)*lx->p) || *lx->p == '_') && n < 15)
			t->text[n++] = *lx->p++;
		t->text[n] = '\0';
		return;
	}
	t->text[0] = *lx->p;
	t->text[1] = '\0';
	if (strchr("+-*/%", *lx->p))
		t->kind = T_OP;
	else if (*lx->p == '(')
		t->kind = T_LPAREN;
	else if (*lx->p == ')')
		t->kind = T_RPAREN;
	else
		t->kind = T_BAD;
	lx->p++;
}

/* Counts tokens of S without evaluating. */
int count_tokens(const char *s)
{
	struct lexer lx;
	int n = 0;

	lx.p = s;
	next_token(&lx);
	while (lx.cur.kind != T_END && lx.cur.kind != T_BAD) {
		n++;
		next_token(&lx);
	}
	return n;
}

static long parse_expr(struct lexer *lx);

static long parse_primary(struct lexer *lx)
{
	long v;

	if (lx->cur.kind == T_NUM) {
		v = lx->cur.value;
		next_token(lx);
		return v;
	}
	if (lx->cur.kind == T_OP && lx->cur.text[0] == '-') {
		next_token(lx);
		return -parse_primary(lx);
	}
	if (lx->cur.kind == T_LPAREN) {
		next_token(lx);
		v = parse_expr(lx);
		if (lx->cur.kind == T_RPAREN)
			next_token(lx);
		return v;
	}
	return 0;
}

static long parse_term(struct lexer *lx)
{
	long v = parse_primary(lx);

	while (lx->cur.kind == T_OP && strchr("*/%", lx->cur.text[0])) {
		char op = lx->cur.text[0];
		long r;

		next_token(lx);
		r = parse_primary(lx);
		if (op == '*')
			v *= r;
		else if (r != 0)
			v = op == '/' ? v / r : v % r;
	}
	return v;
}

static long parse_expr(struct lexer *lx)
{
	long v = parse_term(lx);

	while (lx->cur.kind == T_OP && (lx->cur.text[0] == '+' || lx->cur.text[0] == '-')) {
		char op = lx->cur.text[0];

		next_token(lx);
		if (op == '+')
			v += parse_term(lx);
		else
			v -= parse_term(lx);
	}
	return v;
}

long eval(const char *s)
{
	struct lexer lx;

	lx.p = s;
	next_token(&lx);
	return parse_expr(&lx);
}

/* Parses "k=v,k=v" pairs; returns how many values are positive. */
int count_positive_values(const char *s)
{
	const char *p = s;
	int pos = 0;

	while (*p) {
		long v = 0;
		int neg = 0;

		while (*p && *p != '=')
			p++;
		if (*p == '=')
			p++;
		if (*p == '-') {
			neg = 1;
			p++;
		}
		while (isdigit((unsigned char)*p))
			v = v * 10 + (*p++ - '0');
		if (!neg && v > 0)
			pos++;
		while (*p && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	return pos;
}
