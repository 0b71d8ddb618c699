/* Models dense linear-algebra kernels from a DSP/WCET suite: fixed-size matmul, transpose, LU, triangular solve, stencils. */
#define ROWS 32
#define COLS 32
#define K 16
#define TILE 8

typedef double mat_t[ROWS][COLS];

void mat_mul(double a[ROWS][K], double b[K][COLS], double c[ROWS][COLS])
{
	int i, j, k;

	for (i = 0; i < ROWS; i++)
		for (j = 0; j < COLS; j++) {
			double s = 0.0;

			for (k = 0; k < K; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

void mat_transpose(mat_t m)
{
	int i, j;
	double t;

	for (i = 0; i < ROWS; i++)
		for (j = i + 1; j < COLS; j++) {
			t = m[i][j];
			m[i][j] = m[j][i];
			m[j][i] = t;
		}
}

/* In-place LU decomposition without pivoting (Doolittle). */
void lu_decompose(int n, double a[n][n])
{
	int i, j, k;

	for (k = 0; k < n - 1; k++)
		for (i = k + 1; i < n; i++) {
			a[i][k] /= a[k][k];
			for (j = k + 1; j < n; j++)
				a[i][j] -= a[i][k] * a[k][j];
		}
}

/* Solves L y = b (unit lower) then U x = y, in place in b. */
void lu_solve(int n, double a[n][n], double *b)
{
	int i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			b[i] -= a[i][j] * b[j];
	for (i = n - 1; i >= 0; i--) {
		for (j = i + 1; j < n; j++)
			b[i] -= a[i][j] * b[j];
		b[i] /= a[i][i];
	}
}

void jacobi_step(const mat_t in, mat_t out)
{
	int i, j;

	for (i = 1; i < ROWS - 1; i++)
		for (j = 1; j < COLS - 1; j++)
			out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

/* Row sums, unrolled by four. */
void row_sums(const mat_t m, double *sums)
{
	int i, j;

	for (i = 0; i < ROWS; i++) {
		double s0 = 0, s1 = 0, s2 = 0, s3 = 0;

		for (j = 0; j < COLS; j += 4) {
			s0 += m[i][j];
			s1 += m[i][j + 1];
			s2 += m[i][j + 2];
			s3 += m[i][j + 3];
		}
		sums[i] = s0 + s1 + s2 + s3;
	}
}

/* Tiled copy: TILE x TILE blocks. */
void mat_copy_tiled(const mat_t src, mat_t dst)
{
	int ii, jj, i, j;

	for (ii = 0; ii < ROWS; ii += TILE)
		for (jj = 0; jj < COLS; jj += TILE)
			for (i = ii; i < ii + TILE; i++)
				for (j = jj; j < jj + TILE; j++)
					dst[i][j] = src[i][j];
}

double trace(const mat_t m)
{
	double t = 0;
	int i;

	for (i = 0; i < ROWS; i++)
		t += m[i][i];
	return t;
}

/* y = A x for a symmetric A stored as its lower triangle. */
void sym_matvec(int n, const double *lower, const double *x, double *y)
{
	int i, j, idx = 0;

	for (i = 0; i < n; i++)
		y[i] = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j <= i; j++) {
			y[i] += lower[idx] * x[j];
			if (j != i)
				y[j] += lower[idx] * x[i];
			idx++;
		}
	}
}
