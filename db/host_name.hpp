// The name of this host as the store records it (runs.host, workers.host, coordinators.host)
// and compares it: a process of the same host whose pid is gone is known dead at once.
#pragma once

#include <string>

namespace flowtune::db {

/// This host's name (gethostname), or the name set by set_host_name; "unknown" when the
/// system gives none.
std::string host_name();

/// Makes host_name() return name in this process (and, through the environment variable a
/// caller may set, nothing else). For test doubles only (tests/doubles: a process that plays
/// another host of a fleet); "" restores gethostname.
void set_host_name(const std::string& name);

/// Whether a host column of the store names this host: "name" or "name (CPU model)"
/// (runs.host, tuner/environment.cpp).
bool is_this_host(const std::string& stored);

/// Whether process pid of this host lives (kill(pid, 0): alive or owned by another user).
bool process_alive(long long pid);

}  // namespace flowtune::db
