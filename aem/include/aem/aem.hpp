// Everything the AEM library offers, for code that wants one include.
#pragma once

#include <aem/format.hpp>
#include <aem/io.hpp>
#include <aem/model.hpp>
#include <aem/pose.hpp>
#include <aem/validate.hpp>
