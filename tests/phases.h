/* The page shared by tests/phases.c (a program with two loop nests) and the
 * fake powercap zone of test_profile: the program switches the machine's
 * power as it enters each nest, so the energy the zone reports at any moment
 * is base_j + watts x (now - t_switch), and it records what really ran. */
#ifndef EPI_TEST_PHASES_H
#define EPI_TEST_PHASES_H

#include <stdint.h>

#define PHASE_IDLE_W 30.0 /* before, between and after the nests: as nest A */
#define PHASE_A_W 30.0
#define PHASE_B_W 90.0

typedef struct phase_page {
	volatile uint64_t seq;  /* odd while being changed */
	double base_j, t_switch, watts;
	int line[2];            /* each nest's loop keyword */
	double cpu[2], wall[2]; /* each nest's time, summed over runs */
	int runs;
} phase_page;

#endif
