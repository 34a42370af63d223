// Base64 (RFC 4648, section 4: the standard alphabet with '=' padding), the text form of the
// PNG pictures in table item_images and in the measurement's JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowtune::db {

/// bytes as base64 text (4 characters per 3 bytes, padded with '=').
std::string base64_encode(const std::vector<std::uint8_t>& bytes);
/// Inverse of base64_encode; throws std::invalid_argument for a length that is not a multiple
/// of 4, a character outside the alphabet or misplaced padding.
std::vector<std::uint8_t> base64_decode(const std::string& text);

}  // namespace flowtune::db
