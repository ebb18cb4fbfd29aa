// The reader's limits (assbin::ReadLimits) as options of every verb that reads dumps, so a user
// with an unusual file can raise the one its error names.
#pragma once

#include <assbin/reader.hpp>

#include <boost/program_options.hpp>

namespace assbin::cli {

// --max-inflated-mb, --max-inflate-ratio, --max-node-depth, --max-allocation-ratio, with the
// library's defaults shown.
boost::program_options::options_description read_limit_options();

// The ReadOptions those options ask for (the defaults when none is given).
ReadOptions read_options_from(const boost::program_options::variables_map& vm);

} // namespace assbin::cli
