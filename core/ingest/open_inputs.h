// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ingest/importer.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

/// \file open_inputs.h
/// The one way to open inputs as an investigation, for the CLI and the GUI alike: trace files are told from
/// .lxdb stores; a single store given alone is resumed as it is (nothing to parse); anything else goes into
/// a new store (or the one already open), into which the stores are merged and the trace files imported.
///
/// It comes in two steps so that each can be checked and run where it belongs: planOpenInputs() decides
/// what will happen from the paths alone; openPlanTarget() and fillStore() (or openInputs() for both) do it.

namespace lx {

class Store;

/// What opening a list of inputs will do. Decided before anything is written.
struct OpenPlan {
    enum class Target {
        ResumeStore,  ///< the one input is a store, read as it is: nothing merged, nothing imported
        NewStore,     ///< a new store receives the merges and the imports
        CurrentStore, ///< the store already open receives them (adding to an investigation)
    };
    Target target = Target::NewStore;
    std::string resumePath;           ///< the store resumed (Target::ResumeStore), else empty
    std::vector<std::string> merges;  ///< .lxdb stores to merge into the target, in the order given
    std::vector<std::string> imports; ///< trace files to import into the target, in the order given
};

/// Tells whether a path is an investigation store (by default isSqliteFile(): SQLite's header).
using StoreTest = std::function<bool(const std::string &path)>;

/// Splits `inputs` into stores and trace files and decides the target: a single store alone is resumed,
/// unless `storeOpen` (an investigation is open already, which then receives everything); otherwise a new
/// store. Reads at most each file's first bytes, through `isStore`.
OpenPlan planOpenInputs(const std::vector<std::string> &inputs, bool storeOpen = false, const StoreTest &isStore = {});

/// What happened to one store merged into the investigation.
struct StoreMerge {
    std::string path;
    bool merged = false;
    std::string error; ///< why it could not be merged, or why it was not (alreadyIn)
    /// Not merged because the investigation holds it already (already_imported.h): no failure.
    bool alreadyIn = false;
};

struct OpenOptions {
    /// Where a new store goes (Target::NewStore): empty for a temporary store that disappears when closed
    /// (what "Save as" keeps), else a file, created when missing and added to when it exists.
    std::string newStorePath;
    /// Passed to the import: how OTLP spans become requests (ImportOptions::spanMapping).
    std::string spanMapping;
    /// Passed to the import of the trace files; returning false cancels it (ImportOptions::progress).
    ProgressCallback progress;
    /// Told about each store as soon as it is merged or refused, so that a caller can say so before the
    /// import's progress starts.
    std::function<void(const StoreMerge &)> onMerge;
    /// Passed to the import (ImportOptions::detailRows): JoinCandidates only for a store that is read once
    /// by a report and thrown away.
    DetailRows detailRows = DetailRows::All;
    bool holdRows = false; ///< passed to the import (ImportOptions::holdRows)
    bool rewriteColumnChunks = true; ///< passed to the import (ImportOptions::rewriteColumnChunks)
    bool readAgainSoon = false;      ///< passed to the import (ImportOptions::readAgainSoon)
};

/// Opens the store the plan's target names: the resumed store, or a new one (OpenOptions::newStorePath).
/// Null with the reason in `error` when it cannot, and for Target::CurrentStore, whose store the caller has.
std::unique_ptr<Store> openPlanTarget(const OpenPlan &plan, const OpenOptions &options, std::string *error);

/// What filling a store with the plan's merges and imports did.
struct FillOutcome {
    std::vector<StoreMerge> merges;  ///< one per store of the plan, in its order
    std::vector<FileImport> imports; ///< one per trace file of the plan (importFiles())
    bool cancelled = false;          ///< the progress callback stopped the import of a trace file

    /// True when a store could not be merged or a trace file could not be read in full (the CLI's exit 2).
    bool anyInputFailed() const;
};

/// Merges the plan's stores into `store`, then imports its trace files, joining client and server records
/// as importFiles() does. A store that cannot be merged is reported and skipped; the others go on.
FillOutcome fillStore(Store &store, const OpenPlan &plan, const OpenOptions &options);

/// Both steps on one thread: the target, then what goes into it.
struct OpenedInputs {
    std::unique_ptr<Store> store; ///< null when the target could not be opened (error says why)
    std::string error;
    FillOutcome filled;
};

/// Opens the target of `plan` (not Target::CurrentStore) and fills it.
OpenedInputs openInputs(const OpenPlan &plan, const OpenOptions &options);

} // namespace lx
