// kernels/video_io.hpp in a build without FFmpeg's libraries: every call says so.
#include <stdexcept>

#include "kernels/video_io.hpp"

namespace flowtune {

bool video_reader_available() {
  return false;
}

std::vector<std::pair<int, Image>> read_video_gray(const std::string& path,
                                                   const std::function<bool(int)>& keep,
                                                   int max_frames, std::size_t max_pixels) {
  (void)keep;
  (void)max_frames;
  (void)max_pixels;
  throw std::runtime_error(path +
                           ": this build of flowtune reads no video (FFmpeg's libavformat, "
                           "libavcodec and libswscale were not found at configure time; "
                           "scripts/setup installs them): give a folder of PNG frames instead");
}

void write_video_rgb(const std::string& path, const std::vector<RgbImage>& frames, int fps) {
  (void)frames;
  (void)fps;
  throw std::runtime_error(path + ": this build of flowtune writes no video (no FFmpeg)");
}

}  // namespace flowtune
