#ifndef SG_CLZ4_SHIM_H
#define SG_CLZ4_SHIM_H

// LZ4's block format: the server keeps rendered bodies compressed and expands them into each response.
#include <lz4.h>

#endif
