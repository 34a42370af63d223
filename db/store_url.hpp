// What a --storage value may be (an SQLite file path or a postgresql:// URL), and keeping the
// PostgreSQL password out of everything flowtune writes or passes on (runs.command, logs,
// messages, worker arguments).
#pragma once

#include <optional>
#include <string>

namespace flowtune::db {

/// True for postgresql:// and postgres:// URLs (also declared in db/connection.hpp).
bool is_postgresql_url(const std::string& storage);

/// nullopt when storage is a plain file path or a well-formed libpq URI
/// postgresql://[user[:password]@][host[:port][,...]][/database][?key=value&...] (also
/// postgres://; percent escapes checked, port 1-65535, no blanks or control characters);
/// else the problem, e.g. "'postgresql:tuning' is not a valid PostgreSQL URL (expected
/// postgresql://[user@]host[:port]/database)". An empty value, a value naming another
/// scheme ("mysql://x") or one that starts like a PostgreSQL URL without "//" is refused, so
/// that a typo never becomes a local SQLite file of that name.
std::optional<std::string> storage_problem(const std::string& storage);

/// The password of a PostgreSQL URL (user:PASSWORD@ or ?password=, percent-decoded); "" when
/// it has none or storage is not a PostgreSQL URL.
std::string store_url_password(const std::string& storage);

/// storage without its password (both forms removed): what may be shown, stored or passed
/// as an argument; a path is returned as it is.
std::string redact_store_url(const std::string& storage);

/// text with every PostgreSQL URL in it (up to the next blank; also every URL inside one)
/// redacted, e.g. a
/// command line "tune --storage postgresql://u:pw@h/db" -> "tune --storage
/// postgresql://u@h/db".
std::string redact_store_urls(const std::string& text);

}  // namespace flowtune::db
