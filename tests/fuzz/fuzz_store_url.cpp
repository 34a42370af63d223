// Fuzz harness: --storage values (db/store_url.hpp) on arbitrary text. Every call returns
// (no exception); a redacted URL has no password left and stays valid when the original was;
// redaction is idempotent, and redact_store_urls leaves no password in any URL of a text.
#include <cstdint>
#include <sstream>
#include <string>

#include "db/store_url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace db = flowtune::db;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const bool valid = !db::storage_problem(text).has_value();
  (void)db::store_url_password(text);
  const std::string redacted = db::redact_store_url(text);
  if (!db::store_url_password(redacted).empty()) __builtin_trap();
  if (db::redact_store_url(redacted) != redacted) __builtin_trap();
  if (valid && db::storage_problem(redacted).has_value()) __builtin_trap();
  std::istringstream words(db::redact_store_urls(text));
  for (std::string w; words >> w;)
    for (std::size_t at = w.find("postgres"); at != std::string::npos;
         at = w.find("postgres", at + 1))
      if (db::is_postgresql_url(w.substr(at)) && !db::store_url_password(w.substr(at)).empty())
        __builtin_trap();
  return 0;
}
