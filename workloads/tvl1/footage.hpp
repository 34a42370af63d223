// A user's footage as frame pairs without ground truth: a folder of numbered frames, a list of
// pairs, or a video file (workloads/tvl1/flow_dataset.hpp recognises which).
#pragma once

#include <string>
#include <vector>

#include "workloads/tvl1/flow_dataset.hpp"

namespace flowtune {

/// True for a file name whose extension is a still image format the frame readers take: .png
/// (libpng) and, in a build with the video reader, .jpg, .jpeg, .bmp, .tif, .tiff, .ppm,
/// .pgm, .webp (FFmpeg); case-insensitive.
bool is_frame_file(const std::string& name);

/// True for a file name whose extension is a video container FFmpeg reads (.mp4, .mkv, .avi,
/// .mov, .webm, .m4v, .mpg, .mpeg, .ts, .nut, .h264, .hevc, .y4m); case-insensitive.
bool is_video_file(const std::string& name);

/// The pairs (k stride, k stride + 1), k = 0, 1, ..., of the frame files of folder `dir` in
/// natural order (frame_name_less), of the first max_frames of them (0 = all). Item names are
/// "<first stem>-<second stem>". Throws std::runtime_error "<dir>: ..." for a folder without
/// frames or with one frame, and "<file>: ..." for an unreadable frame or one whose size
/// differs from the first frame's (naming both files and sizes).
FlowDataset load_frame_folder(const std::string& dir, int stride, int max_frames,
                              const PairFilter& wanted);

/// The pairs listed in `list_file`: one "FIRST SECOND" per line (two file names, relative to
/// the list's folder unless absolute; blank lines and lines starting with # skipped). Item
/// names "<first stem>-<second stem>", made unique with "#<line>" where repeated; only the
/// pairs `wanted` accepts are read. Throws
/// std::runtime_error "<list_file>:<line>: ..." for a line without exactly two names, and as
/// load_frame_folder for the frames.
FlowDataset load_pair_list(const std::string& list_file, const PairFilter& wanted);

/// The pairs (k stride, k stride + 1) of the frames of video `path` (read_video_gray, of the
/// first max_frames frames; 0 = all). Item names "<video stem>:<first index>-<second index>".
/// Throws std::runtime_error "<path>: ..." for a video FFmpeg cannot read and one with fewer
/// than two frames.
FlowDataset load_video(const std::string& path, int stride, int max_frames,
                       const PairFilter& wanted);

}  // namespace flowtune
