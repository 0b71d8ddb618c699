/* Models a small open-addressing string hash table (linear probing), in the style of a C utility library. */
#include <stdlib.h>
#include <string.h>

#define HT_FOREACH(i, ht) for ((i) = 0; (i) < (ht)->cap; (i)++)
#define HT_FOREACH_LIVE(i, ht) HT_FOREACH(i, ht) if ((ht)->slots[i].key != NULL)
#define HT_CHECK(x) do { if (!(x)) return -1; } while (0)
#define LOAD_NUM 3
#define LOAD_DEN 4

struct slot {
	const char *key;
	int value;
	unsigned hash;
};

struct htab {
	struct slot *slots;
	int cap;
	int count;
};

unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

int ht_init(struct htab *ht, int cap)
{
	int i;

	ht->slots = malloc((size_t)cap * sizeof *ht->slots);
	HT_CHECK(ht->slots != NULL);
	ht->cap = cap;
	ht->count = 0;
	HT_FOREACH(i, ht)
		ht->slots[i].key = NULL;
	return 0;
}

static int ht_probe(const struct htab *ht, const char *key, unsigned h)
{
	int i = (int)(h % (unsigned)ht->cap), n;

	for (n = 0; n < ht->cap; n++) {
		const struct slot *s = &ht->slots[i];

		if (s->key == NULL || (s->hash == h && strcmp(s->key, key) == 0))
			return i;
		i = i + 1 == ht->cap ? 0 : i + 1;
	}
	return -1;
}

static int ht_grow(struct htab *ht)
{
	struct htab big;
	int i;

	HT_CHECK(ht_init(&big, ht->cap * 2) == 0);
	HT_FOREACH_LIVE(i, ht) {
		int j = ht_probe(&big, ht->slots[i].key, ht->slots[i].hash);

		big.slots[j] = ht->slots[i];
		big.count++;
	}
	free(ht->slots);
	*ht = big;
	return 0;
}

int ht_put(struct htab *ht, const char *key, int value)
{
	unsigned h = hash_str(key);
	int i;

	if ((ht->count + 1) * LOAD_DEN > ht->cap * LOAD_NUM)
		HT_CHECK(ht_grow(ht) == 0);
	i = ht_probe(ht, key, h);
	HT_CHECK(i >= 0);
	if (ht->slots[i].key == NULL) {
		ht->slots[i].key = key;
		ht->slots[i].hash = h;
		ht->count++;
	}
	ht->slots[i].value = value;
	return 0;
}

int ht_get(const struct htab *ht, const char *key, int *value)
{
	int i = ht_probe(ht, key, hash_str(key));

	if (i < 0 || ht->slots[i].key == NULL)
		return 0;
	*value = ht->slots[i].value;
	return 1;
}

long ht_sum_values(const struct htab *ht)
{
	long s = 0;
	int i;

	HT_FOREACH_LIVE(i, ht)
		s += ht->slots[i].value;
	return s;
}

/* Longest probe run, a quality metric of the hash. */
int ht_max_cluster(const struct htab *ht)
{
	int i, run = 0, best = 0;

	HT_FOREACH(i, ht) {
		if (ht->slots[i].key) {
			run++;
			if (run > best)
				best = run;
		} else {
			run = 0;
		}
	}
	return best;
}

int ht_keys_with_prefix(const struct htab *ht, const char *prefix)
{
	int i, n = 0;
	size_t plen = strlen(prefix);

	HT_FOREACH_LIVE(i, ht)
		if (strncmp(ht->slots[i].key, prefix, plen) == 0)
			n++;
	return n;
}

void ht_free(struct htab *ht)
{
	free(ht->slots);
	ht->slots = NULL;
	ht->cap = ht->count = 0;
}
