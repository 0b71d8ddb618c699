/* freq: CPU frequencies as text ("2.4GHz", "2400 MHz", "2400000kHz"). */
#ifndef EPI_FREQ_H
#define EPI_FREQ_H

/* Parses S into kHz; returns 0, or -1 with ERR (EPI_ERRLEN) naming the value. */
int epi_freq_parse(const char *s, long *khz, char *err);
/* Formats kHz as GHz without trailing zeros ("2.13"). */
void epi_freq_fmt(char *buf, unsigned long n, long khz);
/* The same with its unit: "2.4 GHz". */
void epi_freq_ghz(char *buf, unsigned long n, long khz);

#endif
