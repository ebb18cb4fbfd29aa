// One check shared by the converter's unit tests and the hostile-input tests: convert() must refuse
// a scene with a given refusal and a message holding given words. Header-only so it needs no
// library of its own; every suite that includes it already links the converter and Boost.Test.
#pragma once

#include <assbin/converter/convert.hpp>
#include <assbin/types.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

namespace assbin_test {

// True when convert(scene) throws ConvertError with `refusal` and `words` in its message. The
// message is logged either way; refusals are compared by name (Boost.Test cannot print the enum).
inline bool refused_with(const assbin::Scene& scene, assbin::converter::Refusal refusal,
                         const std::string& words) {
    using assbin::converter::refusal_name;
    try {
        assbin::converter::convert(scene);
        BOOST_TEST_MESSAGE("converted; expected the refusal " << refusal_name(refusal));
    } catch (const assbin::converter::ConvertError& error) {
        BOOST_TEST_MESSAGE(refusal_name(error.refusal()) << ": " << error.what());
        return std::string(refusal_name(error.refusal())) == refusal_name(refusal) &&
               std::string(error.what()).find(words) != std::string::npos;
    }
    return false;
}

} // namespace assbin_test
