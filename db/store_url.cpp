// --storage values: checks and password redaction (db/store_url.hpp). Self-contained (no
// libpq, no SQLite), so that the fuzz harnesses build this file alone.
#include "db/store_url.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace flowtune::db {

namespace {

constexpr const char* kExpected = " (expected postgresql://[user@]host[:port]/database)";

bool starts_with_ci(const std::string& s, const std::string& prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

bool hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}

/// Characters of a URI component other than '%' escapes: unreserved, sub-delims and extra.
bool component_ok(const std::string& s, const std::string& extra) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '%') {
      if (i + 2 >= s.size() || !hex(s[i + 1]) || !hex(s[i + 2])) return false;
      i += 2;
    } else if (!(std::isalnum(c) ||
                 std::string("-._~!$&'()*+;=").find(char(c)) != std::string::npos ||
                 extra.find(char(c)) != std::string::npos)) {
      return false;
    }
  }
  return true;
}

std::string decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) && hex(s[i + 2])) {
      out += char(std::strtol(s.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// The parts of postgresql://userinfo@hosts/path?query.
struct UrlParts {
  std::string scheme, userinfo, hosts, path, query;
  bool has_userinfo = false;
};

// As libpq's URI parser (conninfo_uri_parse): the user part ends at the first '@' met before
// any '/'; then the hosts end at '/' or '?'.
UrlParts split(const std::string& url) {
  UrlParts p;
  const std::size_t s = url.find("://");
  p.scheme = url.substr(0, s + 3);
  std::string rest = url.substr(s + 3);
  const std::size_t at = rest.find_first_of("@/");
  if (at != std::string::npos && rest[at] == '@') {
    p.has_userinfo = true;
    p.userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
  }
  const std::size_t q = rest.find('?');
  if (q != std::string::npos) {
    p.query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const std::size_t slash = rest.find('/');
  if (slash != std::string::npos) {
    p.path = rest.substr(slash);
    rest = rest.substr(0, slash);
  }
  p.hosts = rest;
  return p;
}

std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

std::optional<std::string> url_problem(const std::string& url) {
  const auto bad = [&](const std::string& why) -> std::optional<std::string> {
    return "'" + redact_store_url(url) + "' is not a valid PostgreSQL URL: " + why + kExpected;
  };
  for (const char c : url)
    if (std::iscntrl(static_cast<unsigned char>(c)) || c == ' ')
      return bad("it contains a blank or a control character");
  const UrlParts p = split(url);
  if (p.has_userinfo && !component_ok(p.userinfo, ":"))
    return bad("the user part '" + split_on(p.userinfo, ':').front() + "' is malformed");
  for (const std::string& host : split_on(p.hosts, ',')) {
    std::string name = host, port;
    if (!host.empty() && host.front() == '[') {
      const std::size_t close = host.find(']');
      if (close == std::string::npos) return bad("unclosed '[' in the host");
      if (!component_ok(host.substr(1, close - 1), ":")) return bad("malformed IPv6 host");
      name = "";
      if (close + 1 < host.size()) {
        if (host[close + 1] != ':') return bad("malformed host '" + host + "'");
        port = host.substr(close + 2);
        if (port.empty()) return bad("empty port");
      }
    } else {
      const std::size_t colon = host.find(':');
      if (colon != std::string::npos) {
        name = host.substr(0, colon);
        port = host.substr(colon + 1);
        if (port.empty()) return bad("empty port");
      }
      if (!component_ok(name, "")) return bad("malformed host '" + name + "'");
    }
    if (!port.empty()) {
      if (port.size() > 5) return bad("port '" + port + "' is not in 1-65535");
      for (const char c : port)
        if (!std::isdigit(static_cast<unsigned char>(c)))
          return bad("port '" + port + "' is not a number");
      const long n = std::strtol(port.c_str(), nullptr, 10);
      if (n < 1 || n > 65535) return bad("port '" + port + "' is not in 1-65535");
    }
  }
  if (!p.path.empty() && !component_ok(p.path.substr(1), ""))
    return bad("malformed database name '" + p.path.substr(1) + "'");
  if (!p.query.empty())
    for (const std::string& kv : split_on(p.query, '&')) {
      const std::size_t eq = kv.find('=');
      if (eq == 0 || eq == std::string::npos) return bad("malformed parameter '" + kv + "'");
      for (const char c : kv.substr(0, eq))
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
          return bad("malformed parameter '" + kv.substr(0, eq) + "'");
      if (!component_ok(kv.substr(eq + 1), ":/?@,"))
        return bad("malformed value of parameter '" + kv.substr(0, eq) + "'");
    }
  return std::nullopt;
}

}  // namespace

bool is_postgresql_url(const std::string& storage) {
  return storage.rfind("postgresql://", 0) == 0 || storage.rfind("postgres://", 0) == 0;
}

std::optional<std::string> storage_problem(const std::string& storage) {
  if (storage.empty()) return std::string("an empty store name (give a file path or a URL)");
  if (is_postgresql_url(storage)) return url_problem(storage);
  if (starts_with_ci(storage, "postgres"))
    return "'" + storage + "' is not a valid PostgreSQL URL" + kExpected;
  const std::size_t scheme = storage.find("://");
  if (scheme != std::string::npos) {
    bool word = scheme > 0;
    for (std::size_t i = 0; i < scheme; ++i)
      word = word && (std::isalnum(static_cast<unsigned char>(storage[i])) || storage[i] == '+' ||
                      storage[i] == '-' || storage[i] == '.');
    if (word)
      return "'" + storage.substr(0, scheme + 3) +
             "...' is neither a PostgreSQL URL (postgresql://) nor a file path";
  }
  if (storage.back() == '/') return "'" + storage + "' names a directory, not a database file";
  return std::nullopt;
}

std::string store_url_password(const std::string& storage) {
  if (!is_postgresql_url(storage)) return "";
  const UrlParts p = split(storage);
  const std::size_t colon = p.userinfo.find(':');
  if (p.has_userinfo && colon != std::string::npos) return decode(p.userinfo.substr(colon + 1));
  if (!p.query.empty())
    for (const std::string& kv : split_on(p.query, '&'))
      if (kv.rfind("password=", 0) == 0) return decode(kv.substr(9));
  return "";
}

namespace {

std::string redact_once(const std::string& storage) {
  const UrlParts p = split(storage);
  std::string out = p.scheme;
  // The '@' stays with an empty user: without it, the host part could read as a user.
  if (p.has_userinfo) out += p.userinfo.substr(0, p.userinfo.find(':')) + "@";
  out += p.hosts + p.path;
  std::string query;
  bool removed = false;
  if (!p.query.empty())
    for (const std::string& kv : split_on(p.query, '&')) {
      if (kv.rfind("password=", 0) == 0)
        removed = true;
      else
        query += (query.empty() ? "" : "&") + kv;
    }
  // Without a user part and a path, the '/' that kept a later '@' from ending a user part may
  // have been in the removed password ("postgresql://h?password=a/b&x=c@d" would become user
  // "h?x=c"): an empty path keeps the split (libpq sets no database for it, as without one).
  if (removed && !p.has_userinfo && p.path.empty() && query.find('@') != std::string::npos)
    out += "/";
  if (!query.empty()) out += "?" + query;
  return out;
}

}  // namespace

std::string redact_store_url(const std::string& storage) {
  if (!is_postgresql_url(storage)) return storage;
  // Until nothing changes (a safeguard: redact_once keeps the split, see above). Each round
  // that changes the text shortens it (a removed "password=..." is longer than the '/' added).
  std::string out = storage;
  for (std::string next = redact_once(out); next != out; next = redact_once(out)) out = next;
  return out;
}

namespace {

std::size_t next_url(const std::string& text, std::size_t from) {
  std::size_t next = std::string::npos;
  for (const char* scheme : {"postgresql://", "postgres://"}) {
    const std::size_t at = text.find(scheme, from);
    if (at < next) next = at;
  }
  return next;
}

/// A word without blanks from its first URL on: every URL in it (the suffix from each scheme
/// on, as libpq would read it) redacted, the innermost first, in passes until a pass changes
/// nothing (a changing redaction shortens the text, so passes end). At most quadratic in the word's
/// length; a recursion over the inner URLs was exponential in their number (fuzzing: a 4 KB
/// word of 120 URLs took 250 ms).
std::string redact_word(std::string word) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<std::size_t> starts;
    for (std::size_t at = next_url(word, 0); at != std::string::npos; at = next_url(word, at + 1))
      starts.push_back(at);
    for (auto at = starts.rbegin(); at != starts.rend(); ++at) {
      std::string tail = redact_store_url(word.substr(*at));
      if (word.compare(*at, std::string::npos, tail) == 0) continue;
      word.replace(*at, std::string::npos, tail);
      changed = true;
    }
  }
  return word;
}

}  // namespace

std::string redact_store_urls(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t next = next_url(text, i);
    if (next == std::string::npos) {
      out += text.substr(i);
      break;
    }
    std::size_t end = next;  // a URL ends at a blank
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
    out += text.substr(i, next - i) + redact_word(text.substr(next, end - next));
    i = end;
  }
  return out;
}

}  // namespace flowtune::db
