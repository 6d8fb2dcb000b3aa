// Compiles a kernel body written once over the vector-width traits
// (simd_width.hpp) for each instruction set above SSE2: the includer
// defines BUDGETSVM_WIDE_BODY as the body's path (relative to this folder),
// and this header includes it twice, defining for each pass
//
//   BUDGETSVM_WIDE         avx2, then avx512: the namespace of the kernels
//                          (budgetsvm::simd::BUDGETSVM_WIDE) and of their
//                          traits (width::BUDGETSVM_WIDE::Double, ::Float)
//   BUDGETSVM_WIDE_TARGET  the target attribute of every function and
//                          lambda the body defines
//
// No include guard: it is included once per body.
#include "simd_width.hpp"

#if defined(BUDGETSVM_SIMD_X86)

#define BUDGETSVM_WIDE avx2
#define BUDGETSVM_WIDE_TARGET BUDGETSVM_TARGET("avx2,fma")
#include BUDGETSVM_WIDE_BODY
#undef BUDGETSVM_WIDE
#undef BUDGETSVM_WIDE_TARGET

#define BUDGETSVM_WIDE avx512
#define BUDGETSVM_WIDE_TARGET BUDGETSVM_TARGET("avx512f")
#include BUDGETSVM_WIDE_BODY
#undef BUDGETSVM_WIDE
#undef BUDGETSVM_WIDE_TARGET

#endif  // BUDGETSVM_SIMD_X86

#undef BUDGETSVM_WIDE_BODY
