// Writing a text file whole, for every writer of files (headers, reports).
#pragma once

#include <string>

namespace flowtune {

/// Writes text to path (binary, truncating), creating its parent folders. Throws
/// std::runtime_error "<path>: <problem>" when the folder cannot be created or the file
/// cannot be opened or written.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace flowtune
