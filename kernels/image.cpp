#include "kernels/image.hpp"
