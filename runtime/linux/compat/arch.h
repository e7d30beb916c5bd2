/* arch.h - the architecture layer of the runtime: one header per target, chosen by the kernel's config. */
#ifndef _STP_ARCH_H
#define _STP_ARCH_H

#if defined(CONFIG_X86_64)
#include "arch_x86_64.h"
#elif defined(CONFIG_ARM64)
#include "arch_arm64.h"
#else
#error "stapc's runtime supports x86-64 and arm64 kernels only"
#endif

#endif
