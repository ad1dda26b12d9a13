// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QThreadPool;

/// \file background_pool.h
/// The threads that BackgroundJob's work runs on, apart from Qt's global pool. Qt's raster painter hands
/// parts of a large paint to the global pool and waits for them: while analyses of a million requests held
/// every thread of it, a repaint of the window waited for one of them to finish, and the window froze for
/// up to a second with nothing to do.

/// The pool of background work (as many threads as cores). Wait for it before the process ends.
QThreadPool &backgroundPool();
