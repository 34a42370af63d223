// Video files as gray frames, through FFmpeg's libraries (libavformat, libavcodec, libswscale)
// where the build found them (FLOWTUNE_HAVE_VIDEO); without them every read says so.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/image.hpp"
#include "kernels/png_io.hpp"

namespace flowtune {

/// True when this build reads videos (FFmpeg's libraries were found at configure time).
bool video_reader_available();

/// Decodes the first video stream of `path` in presentation order and returns the frames whose
/// 0-based index `keep` accepts, each with its index, as gray Images in [0, 255]: each frame
/// is converted to 8-bit RGB by libswscale (SWS_BICUBIC, its default BT.601 matrix: as
/// OpenCV's FFmpeg capture) and then to gray as OpenCV's cvtColor(RGB2GRAY) does,
/// Y = 0.299 R + 0.587 G + 0.114 B (kept in float, not rounded). Decoding stops after max_frames
/// frames (0 = the whole stream). Also reads a single still image FFmpeg decodes (one frame).
/// Frames over max_pixels (width x height) are refused before decoding. Throws std::runtime_error
/// "<path>: <problem>" for a missing file, a file FFmpeg cannot open or decode, no video stream,
/// frames that change size mid-stream, an image over the limit, or a build without FFmpeg.
std::vector<std::pair<int, Image>> read_video_gray(const std::string& path,
                                                   const std::function<bool(int)>& keep,
                                                   int max_frames, std::size_t max_pixels);

/// Writes `frames` (8-bit RGB, all one size, at least one) as a lossless video: FFV1 in packed
/// RGB (0RGB32, every sample kept exactly) in the container `path`'s extension names (.mkv,
/// .avi, .nut), at `fps` frames per second. For tests and demos of the video input. Throws
/// std::invalid_argument for no frames or mixed sizes, std::runtime_error "<path>: <problem>"
/// when FFmpeg cannot encode or write, or in a build without FFmpeg.
void write_video_rgb(const std::string& path, const std::vector<RgbImage>& frames, int fps);

}  // namespace flowtune
