/* ops: the operation classes epi counts and prices.
 *
 * A count key is CLASS or CLASS.TYPE (add.f64, load.i32, ...); the type
 * comes from the C type of the operation.  A cost-table lookup of
 * CLASS.TYPE falls back to CLASS. */
#ifndef EPI_OPS_H
#define EPI_OPS_H

enum epi_op {
	EPI_OP_ADD,    /* binary + and - */
	EPI_OP_MUL,    /* * */
	EPI_OP_DIV,    /* / and % */
	EPI_OP_CMP,    /* < <= > >= == != */
	EPI_OP_BIT,    /* & | ^ << >> ~ */
	EPI_OP_LOAD,   /* an element read through [], * or -> */
	EPI_OP_STORE,  /* an element written through [], * or -> */
	EPI_OP_MEMCPY, /* bytes copied or set: memcpy, memmove, memset */
	EPI_OP_MALLOC, /* bytes allocated: malloc, calloc, realloc */
	EPI_OP_PRINT,  /* calls of the printf/puts/putchar family */
	EPI_OP_ITER,   /* one loop iteration's control: condition and increment */
	EPI_OP_COUNT
};

/* Units of a cost-table entry. */
enum epi_unit { EPI_UNIT_OP, EPI_UNIT_BYTE, EPI_UNIT_MIB };

const char *epi_op_name(enum epi_op op);
/* The class of a key ("add.f64" -> EPI_OP_ADD), or -1. */
int epi_op_class(const char *key);
/* The compiled-code model reads, per loop, its iterations and what tells a
 * machine loop's share of the source loop's work: the bytes loaded, the
 * bytes stored and the floating-point operations. The name of the sum a
 * count of KEY adds to ("iter", "load_bytes", "store_bytes", "flops"), or
 * NULL; *WEIGHT: what one operation adds (an element's bytes, or 1). */
const char *epi_op_loop_sum(const char *key, int *weight);
/* The bytes of an element of the type that ends KEY ("load.f64": 8,
 * "store.i32": 4, "load.ptr": 8); 8 when it names none. */
int epi_op_elem_bytes(const char *key);
/* Whether a count of this class is in bytes (memcpy, malloc) rather than operations. */
int epi_op_counts_bytes(enum epi_op op);
const char *epi_unit_name(enum epi_unit u);
int epi_unit_parse(const char *s);
/* The factor that turns a count of OP into units of U, or -1 when they do not match. */
double epi_unit_factor(enum epi_op op, enum epi_unit u);

#endif
