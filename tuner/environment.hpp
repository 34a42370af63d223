// The environment recorded with every run (ARCHITECTURE.md "Storage").
#pragma once

#include <string>

#include "boards/board.hpp"
#include "db/repository.hpp"

namespace flowtune {

/// Fills a RunInfo: board, command line, git revision of the source tree (or "unknown"),
/// host name, CPU model, and for GPU boards the GPU name, driver and CUDA versions and the
/// observed graphics clock (through NVML when present, else "n/a").
db::RunInfo collect_run_info(const Board& board, const std::string& command,
                             const std::string& dataset);

}  // namespace flowtune
