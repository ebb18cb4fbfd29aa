// How the verbs read dumps, as options: the reader's limits (assbin::ReadLimits), on every verb that
// reads dumps, so a user with an unusual file can raise the one its error names; and --jobs, the
// threads a verb reads (and works) with.
#pragma once

#include <assbin/reader.hpp>

#include <boost/program_options.hpp>

#include <optional>

namespace assbin::cli {

// --max-inflated-mb, --max-inflate-ratio, --max-node-depth, --max-allocation-ratio, with the
// library's defaults shown.
boost::program_options::options_description read_limit_options();

// The ReadOptions those options ask for (the defaults when none is given).
ReadOptions read_options_from(const boost::program_options::variables_map& vm);

// --jobs/-j N, for the verbs that read a dump at a time: threads that decode its meshes (and do the
// verb's own work per mesh); `what` says what else they do, for the help.
boost::program_options::options_description jobs_option(const char* what);

// The --jobs value, or the number of cores when none is given; nullopt when it is not 1..1024 (the
// caller reports the usage error).
std::optional<unsigned> jobs_from(const boost::program_options::variables_map& vm);

} // namespace assbin::cli
