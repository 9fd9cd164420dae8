// Internal to store/: SHA-256 (FIPS 180-4), written here so that fingerprints need no crypto
// library. Not for secrets: it is not constant-time and keeps no state between calls.
#pragma once

#include <string>
#include <string_view>

namespace kernelopt::store::detail {

// The SHA-256 digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace kernelopt::store::detail
