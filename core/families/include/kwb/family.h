// SPDX-License-Identifier: Apache-2.0
#pragma once
// Problem families (docs/FAMILIES.md): what the case loop needs to know about a kind of problem,
// so that GEMM, reduce and scan run through one pipeline. A family declares its size axes,
// its work (FLOPs and bytes for a size), its reference kernel and comparison rule, and its
// headline metric and roof; throughput and percentages are derived here from the declared
// work and the median time, never per family.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/compare.h"
#include "kwb/device_info.h"
#include "kwb/family_info.h"
#include "kwb/shape.h"
#include "kwb/vector_args.h"

namespace kwb {

struct CaseResult;
struct RunDocument;

// Work of one launch on one size: the framework divides it by the median time.
struct Work {
  double flops = 0.0;
  double bytes = 0.0;  // the fewest bytes the problem must move (read + write)
  // FLOP per byte: where the case sits on the roofline (0 when it moves no bytes).
  double intensity() const { return bytes > 0 ? flops / bytes : 0.0; }
};

// A family as the engine runs it: its declaration (what a document lists) and its work. Each
// family's folder under kernels/ defines its own and registers it (kernels/registry.cpp).
struct Family : FamilyInfo {
  // Word axes a run covers with every word when neither a size text nor --axis names a value
  // (reduce and scan: both element types); any other word axis takes its first word.
  std::vector<std::string> allWordsByDefault = {};
  // The work of a case of this family (its size and precision); null where unknown (a family
  // known only from its legacy declaration, as a reader of old documents knows it).
  Work (*work)(const CaseResult& c) = nullptr;
};

// Adds a family to the catalog (a second registration of an id replaces the first).
void registerFamily(const Family& f);
// Every registered family, in registration order; where none is registered (a reader without
// the engine's kernels: the GUI), gemm, reduce and scan from their legacy declarations.
std::vector<Family> families();
// The registered family `id`, else its legacy declaration (no work), else null.
const Family* tryFindFamily(std::string_view id);
// Throws InputError naming the id and listing the known families.
const Family& findFamily(std::string_view id);

// One size of a 1-D case: a count of elements of one type.
struct VectorSize {
  std::int64_t count = 0;
  ElementType type = ElementType::kFloat32;
  friend bool operator==(const VectorSize&, const VectorSize&) = default;
};
// The count and type axes of a 1-D family's size.
VectorSize vectorSizeOf(const CaseSize& s);
// The sizes of a 1-D family's run: every count in every type, counts outermost.
std::vector<CaseSize> vectorSizes(const std::string& family,
                                  const std::vector<std::int64_t>& counts,
                                  const std::vector<ElementType>& types);

// The largest count a 1-D size may name: 2^31 − 1 elements (8 GiB a buffer; launchers may
// index with 32-bit ints). A larger count is refused with this limit; a count within it that
// does not fit the device is skipped by the run with the memory it needs.
inline constexpr std::int64_t kMaxVectorCount = (std::int64_t{1} << 31) - 1;
// A whole number ("1000003") or a power of two ("2^20"), from 0 to kMaxVectorCount: the size
// parser's reading of a count axis (kwb/family_info.h). Throws InputError quoting the text.
std::int64_t parseCount(std::string_view text);
// Comma-separated counts: "2^20,2^28,1000003,0,1".
std::vector<std::int64_t> parseCountList(std::string_view text);

// The comparison rule of the 1-D families (docs/VALIDATION.md, "Reduce and scan"):
// int32 is exact (modulo 2^32); float is held to |x − r| ≤ atol + rtol·|r| against the FP64
// reference with rtol = 1e-5 and atol = 8 · 2^-24 · √n · ‖x‖₂, which grows with the count.
Tolerance vectorTolerance(ElementType type, std::int64_t count, double inputL2Norm);

// A case's size for people and for keys: "1024³" / "256×384×640" for GEMM,
// "2^20 f32" for the 1-D families.
std::string sizeText(const CaseResult& c);
// The same as a command line writes it: "512x512x512" for GEMM, "2^20 f32" for 1-D cases.
std::string sizeLabel(const CaseResult& c);
// True when the two cases are of the same family and size.
bool sameSize(const CaseResult& a, const CaseResult& b);
bool isOneDimensional(const CaseResult& c);
// The case of `like`'s kernel on `like`'s size in `doc` (sameSize): any family; null if none.
const CaseResult* findLike(const RunDocument& doc, const CaseResult& like);

// Derived figures of a timed case (figures["gflops"], ["gbps"], ["pct_of_peak"],
// ["pct_of_roof"]) from its family's work and its median; also the legacy gflops,
// bandwidthGBs and arithmeticIntensity fields. `device` may be null (no peak, no roof).
void deriveFigures(CaseResult& c, const DeviceInfo* device);
// figures["pct_of_peak"] and ["pct_of_roof"] from the headline figure already there.
void derivePeakFigures(CaseResult& c, const FamilyInfo& family, const DeviceInfo& device);
// Documents and streams of schemas 1-3 had no figures map: % of peak is derived from the
// device's peaks when read (a document) or received (a stream), the same way for both.
// `family`: the case's (null: none derived).
void deriveOlderSchemaFigures(CaseResult& c, const FamilyInfo* family, int schemaVersion,
                              const DeviceInfo* device);
// figures["pct_of_reference"]: the headline vs the family's reference kernel on the same size
// among `done` (for GEMM: pctOfFp32Reference, as before).
void fillReferenceFigure(CaseResult& c, const std::vector<CaseResult>& done);

}  // namespace kwb
