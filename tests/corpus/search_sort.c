/* Models a WCET benchmark of searches and sorts over fixed-size arrays: linear/binary search, insertion, bubble, selection sort. */
#pragma GCC diagnostic ignored "-Wunknown-pragmas"

#define SIZE 16

int keys[SIZE];

int linear_search(const int *a, int n, int key)
{
	int i, found = -1;

	for (i = 0; i < n; i++) {
		if (a[i] == key) {
			found = i;
			break;
		}
	}
	return found;
}

int binary_search(const int *a, int n, int key)
{
	int lo = 0, hi = n - 1;

	_Pragma("loopbound min 1 max 5")
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (a[mid] == key)
			return mid;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void insertion_sort(int *a, int n)
{
	int i, j, key;

	for (i = 1; i < n; i++) {
		key = a[i];
		j = i - 1;
		_Pragma("loopbound min 0 max 15")
		while (j >= 0 && a[j] > key) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = key;
	}
}

void bubble_sort(int *a, int n)
{
	int i, j, t, swapped;

	for (i = 0; i < n - 1; i++) {
		swapped = 0;
		for (j = 0; j < n - 1 - i; j++) {
			if (a[j] > a[j + 1]) {
				t = a[j];
				a[j] = a[j + 1];
				a[j + 1] = t;
				swapped = 1;
			}
		}
		if (!swapped)
			break;
	}
}

void selection_sort(int *a, int n)
{
	int i, j, m, t;

	for (i = 0; i < n - 1; i++) {
		m = i;
		for (j = i + 1; j < n; j++)
			if (a[j] < a[m])
				m = j;
		if (m != i) {
			t = a[i];
			a[i] = a[m];
			a[m] = t;
		}
	}
}

/* Sorts keys[] descending with a do/while bubble pass. */
void sort_keys_desc(void)
{
	int i, t, swapped;

	_Pragma("loopbound min 1 max 16")
	do {
		swapped = 0;
		for (i = 0; i < SIZE - 1; i++) {
			if (keys[i] < keys[i + 1]) {
				t = keys[i];
				keys[i] = keys[i + 1];
				keys[i + 1] = t;
				swapped = 1;
			}
		}
	} while (swapped);
}

/* Index of the last element below LIMIT, scanning from the end. */
int last_below(const int *a, int n, int limit)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		if (a[i] < limit)
			return i;
	return -1;
}

int count_in_range(const int *a, int n, int lo, int hi)
{
	int i, c = 0;

	for (i = 0; i < n; i++) {
		if (a[i] < lo)
			continue;
		if (a[i] > hi)
			continue;
		c++;
	}
	return c;
}

/* Lower bound by bisection on [0, n). */
int lower_bound(const int *a, int n, int key)
{
	int lo = 0, len = n;

	_Pragma("loopbound min 0 max 5")
	while (len > 0) {
		int half = len / 2;

		if (a[lo + half] < key) {
			lo += half + 1;
			len -= half + 1;
		} else {
			len = half;
		}
	}
	return lo;
}

int is_sorted(const int *a, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (a[i - 1] > a[i])
			return 0;
	return 1;
}
