// Text output shared by every writer of files (tuned headers, reports): numbers with fixed
// decimals and whole-file writes.
#pragma once

#include <string>

namespace flowtune {

/// value with `decimals` decimals ("%.*f"), "n/a" for NaN.
std::string fixed_decimals(double value, int decimals);

/// Writes text to path (binary, truncating), creating its parent folders. Throws
/// std::runtime_error "<path>: <problem>" when the folder cannot be created or the file
/// cannot be opened or written.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace flowtune
