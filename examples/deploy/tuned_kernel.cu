// The tuned CUDA kernel: the header's FT_* constants and FT_PRECISION_* select the kernel's
// build, as the tuner's NVRTC -D constants did (FLOWTUNE_DEPLOY_CUDA in CMakeLists.txt).
#include "tuned.h"
#include FLOWTUNE_TUNED_KERNEL
