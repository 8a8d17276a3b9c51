#pragma once
// JSON encoding of hardware specs, shared by catalog files and the `hardware` section of design
// files. Units are in the key names: *_tflops (1e12 FLOP/s), *_gb (1e9 bytes), *_gb_per_s
// (1e9 bytes/s), *_gbps (1e9 bits/s, network line rate), *_ns (1e-9 s).

#include "io/jsonreader.h"
#include "model/catalog.h"

#include <nlohmann/json.hpp>

namespace weft {

/// Upper bounds of hardware figures in files: far above today's parts (224 Gb/s SerDes lanes,
/// 1.6 Tb/s NICs, B200: 2.25 dense BF16 PFLOP/s, 192 GB and 8 TB/s of HBM3e), so that a typo
/// such as 1e18 is refused with the limit instead of giving absurd results.
inline constexpr double kMaxRateGbps = 1e5; ///< per lane, port or NIC, in Gb/s
inline constexpr double kMaxTflops = 1e6; ///< peak per accelerator
inline constexpr double kMaxMemoryGb = 1e6; ///< HBM capacity per accelerator, GB
inline constexpr double kMaxBandwidthGBps = 1e6; ///< HBM / scale-up bandwidth, GB/s

nlohmann::ordered_json toJson(const AcceleratorSpec &s);
nlohmann::ordered_json toJson(const SwitchSpec &s);
nlohmann::ordered_json toJson(const LinkTechSpec &s);
nlohmann::ordered_json toJson(const ScaleUpPreset &p);

/// Readers; throw JsonFieldError naming the JSON path of a missing or invalid field.
AcceleratorSpec acceleratorFromJson(const JsonReader &r);
SwitchSpec switchFromJson(const JsonReader &r);
LinkTechSpec linkTechFromJson(const JsonReader &r);
ScaleUpPreset scaleUpPresetFromJson(const JsonReader &r);

/// The three spec tables as {"accelerators": [...], "switches": [...], "link_technologies": [...]},
/// each sorted by key.
nlohmann::ordered_json toJson(const HardwareTable &t);
/// Reads the tables from an object holding any of the three arrays; duplicate keys are errors.
HardwareTable hardwareFromJson(const JsonReader &r);

/// Unit conversions at the file edge.
constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
inline double gbpsToBytesPerSecond(double gbps)
{
    return gbps * kGiga / 8.0;
}
inline double bytesPerSecondToGbps(double bps)
{
    return bps * 8.0 / kGiga;
}

/// Rounds a unit-converted value to 12 significant digits for writing. x * 8 / 1e9 and its
/// inverse are not exact in binary, so without this a load + save could change the last digit
/// and break byte-identical files; 12 digits keep far more precision than any figure needs.
double fileNumber(double v);

} // namespace weft
