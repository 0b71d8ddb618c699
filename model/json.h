/* json: small helpers for the JSON reports of every command (jansson). */
#ifndef EPI_JSON_H
#define EPI_JSON_H

#include <jansson.h>
#include <math.h>

/* A number, or null for NAN (a value nothing measured). */
static inline json_t *epi_json_num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

#endif
