/* A loop epi-predict cannot count by itself: no induction variable. */
struct node {
	struct node *next;
	int v;
};

int sum(struct node *p)
{
	int s = 0;
	while (p) {
		s += p->v;
		p = p->next;
	}
	return s;
}
