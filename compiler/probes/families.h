/* families.h - every provider, probe_NAME for each row PROBE_FAMILY(NAME) of families.def: for probes/ alone (the passes call them through probes.h). */
#ifndef STAPC_FAMILIES_H
#define STAPC_FAMILIES_H

#include "probes.h"

#define PROBE_FAMILY(name) extern const struct probe_provider probe_##name;
#include "probes/families.def"
#undef PROBE_FAMILY

#endif
