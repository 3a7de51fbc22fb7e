// Everything in core/, for users who want one include.
#pragma once
#include "flipcheck/hd.hpp"
#include "flipcheck/format.hpp"
#include "flipcheck/mapping.hpp"
#include "flipcheck/policy.hpp"
#include "flipcheck/oracle.hpp"
#include "flipcheck/law.hpp"
