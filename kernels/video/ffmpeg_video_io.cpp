// kernels/video_io.hpp through FFmpeg's libavformat (demuxing), libavcodec (decoding and
// encoding) and libswscale (pixel format conversion).
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/video_io.hpp"

namespace flowtune {
namespace {

std::string av_error_text(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

struct FormatInput {
  AVFormatContext* p = nullptr;
  ~FormatInput() { avformat_close_input(&p); }
};
struct FormatOutput {
  AVFormatContext* p = nullptr;
  ~FormatOutput() {
    if (p && !(p->oformat->flags & AVFMT_NOFILE)) avio_closep(&p->pb);
    avformat_free_context(p);
  }
};
struct CodecContext {
  AVCodecContext* p = nullptr;
  ~CodecContext() { avcodec_free_context(&p); }
};
struct Frame {
  AVFrame* p = av_frame_alloc();
  ~Frame() { av_frame_free(&p); }
};
struct Packet {
  AVPacket* p = av_packet_alloc();
  ~Packet() { av_packet_free(&p); }
};
struct Scaler {
  SwsContext* p = nullptr;
  ~Scaler() { sws_freeContext(p); }
};

// The decoder's frame as a gray Image: libswscale to RGB24 with SWS_BICUBIC and its default
// BT.601 matrix (what OpenCV's FFmpeg capture does before its BGR frames reach cvtColor), then
// cvtColor's RGB2GRAY weights, in float.
class GrayConverter {
 public:
  Image convert(const AVFrame* f, const std::string& path) {
    if (!scaler_.p || f->width != width_ || f->height != height_ || f->format != format_) {
      sws_freeContext(scaler_.p);
      width_ = f->width;
      height_ = f->height;
      format_ = f->format;
      scaler_.p = sws_getContext(width_, height_, AVPixelFormat(format_), width_, height_,
                                 AV_PIX_FMT_RGB24, SWS_BICUBIC, nullptr, nullptr, nullptr);
      if (!scaler_.p)
        throw std::runtime_error(path + ": cannot convert the pixel format " +
                                 std::string(av_get_pix_fmt_name(AVPixelFormat(format_))
                                                 ? av_get_pix_fmt_name(AVPixelFormat(format_))
                                                 : "?") +
                                 " to RGB");
      rgb_.assign(std::size_t(width_) * height_ * 3, 0);
    }
    uint8_t* dst[1] = {rgb_.data()};
    const int dst_stride[1] = {3 * width_};
    sws_scale(scaler_.p, f->data, f->linesize, 0, height_, dst, dst_stride);
    Image out(width_, height_);
    for (std::size_t i = 0; i < out.data.size(); ++i)
      out.data[i] = 0.299f * rgb_[3 * i] + 0.587f * rgb_[3 * i + 1] + 0.114f * rgb_[3 * i + 2];
    return out;
  }

 private:
  Scaler scaler_;
  int width_ = 0, height_ = 0, format_ = -1;
  std::vector<uint8_t> rgb_;
};

}  // namespace

bool video_reader_available() {
  return true;
}

std::vector<std::pair<int, Image>> read_video_gray(const std::string& path,
                                                   const std::function<bool(int)>& keep,
                                                   int max_frames, std::size_t max_pixels) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error(path + ": video file not found");
  av_log_set_level(AV_LOG_QUIET);  // the errors reach the caller as exceptions
  FormatInput in;
  if (const int r = avformat_open_input(&in.p, path.c_str(), nullptr, nullptr); r < 0)
    throw std::runtime_error(path + ": FFmpeg cannot open it as a video (" + av_error_text(r) +
                             ")");
  if (const int r = avformat_find_stream_info(in.p, nullptr); r < 0)
    throw std::runtime_error(path + ": FFmpeg cannot read its streams (" + av_error_text(r) + ")");
  const int stream = av_find_best_stream(in.p, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  if (stream < 0) throw std::runtime_error(path + ": no video stream");
  const AVCodecParameters* par = in.p->streams[stream]->codecpar;
  const AVCodec* codec = avcodec_find_decoder(par->codec_id);
  if (!codec)
    throw std::runtime_error(path + ": no decoder for its codec " +
                             std::string(avcodec_get_name(par->codec_id)));
  if (par->width < 1 || par->height < 1 ||
      std::size_t(par->width) * std::size_t(par->height) > max_pixels)
    throw std::runtime_error(path + ": frames of " + std::to_string(par->width) + "x" +
                             std::to_string(par->height) + " exceed the limit of " +
                             std::to_string(max_pixels) + " pixels (--max-pixels) or are empty");
  CodecContext dec;
  dec.p = avcodec_alloc_context3(codec);
  if (!dec.p || avcodec_parameters_to_context(dec.p, par) < 0)
    throw std::runtime_error(path + ": cannot set up the decoder");
  if (const int r = avcodec_open2(dec.p, codec, nullptr); r < 0)
    throw std::runtime_error(path + ": cannot open the decoder (" + av_error_text(r) + ")");
  Packet packet;
  Frame frame;
  GrayConverter gray;
  std::vector<std::pair<int, Image>> out;
  int index = 0, width = 0, height = 0;
  bool done = false;
  const auto drain = [&]() {
    while (!done) {
      const int r = avcodec_receive_frame(dec.p, frame.p);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      if (r < 0)
        throw std::runtime_error(path + ": cannot decode frame " + std::to_string(index) + " (" +
                                 av_error_text(r) + ")");
      if (index == 0) {
        width = frame.p->width;
        height = frame.p->height;
      } else if (frame.p->width != width || frame.p->height != height) {
        throw std::runtime_error(path + ": frame " + std::to_string(index) + " is " +
                                 std::to_string(frame.p->width) + "x" +
                                 std::to_string(frame.p->height) + ", the first was " +
                                 std::to_string(width) + "x" + std::to_string(height));
      }
      if (keep(index)) out.emplace_back(index, gray.convert(frame.p, path));
      av_frame_unref(frame.p);
      ++index;
      if (max_frames > 0 && index >= max_frames) done = true;
    }
  };
  while (!done) {
    const int r = av_read_frame(in.p, packet.p);
    if (r == AVERROR_EOF) break;
    if (r < 0) throw std::runtime_error(path + ": cannot read (" + av_error_text(r) + ")");
    if (packet.p->stream_index == stream) {
      const int s = avcodec_send_packet(dec.p, packet.p);
      av_packet_unref(packet.p);
      if (s < 0 && s != AVERROR(EAGAIN))
        throw std::runtime_error(path + ": cannot decode (" + av_error_text(s) + ")");
      drain();
    } else {
      av_packet_unref(packet.p);
    }
  }
  if (!done) {
    avcodec_send_packet(dec.p, nullptr);  // flush the frames the decoder holds
    drain();
  }
  if (index == 0) throw std::runtime_error(path + ": no frame could be decoded");
  return out;
}

void write_video_rgb(const std::string& path, const std::vector<RgbImage>& frames, int fps) {
  if (frames.empty()) throw std::invalid_argument(path + ": no frames to write");
  const int w = frames[0].width, h = frames[0].height;
  for (const RgbImage& f : frames)
    if (f.width != w || f.height != h || f.rgb.size() != std::size_t(w) * h * 3)
      throw std::invalid_argument(path + ": frames of mixed sizes");
  av_log_set_level(AV_LOG_QUIET);  // the errors reach the caller as exceptions
  FormatOutput out;
  if (avformat_alloc_output_context2(&out.p, nullptr, nullptr, path.c_str()) < 0 || !out.p)
    throw std::runtime_error(path + ": FFmpeg knows no container for this file name");
  const AVCodec* codec = avcodec_find_encoder(AV_CODEC_ID_FFV1);
  if (!codec) throw std::runtime_error(path + ": FFmpeg has no FFV1 encoder");
  AVStream* st = avformat_new_stream(out.p, nullptr);
  CodecContext enc;
  enc.p = avcodec_alloc_context3(codec);
  if (!st || !enc.p) throw std::runtime_error(path + ": out of memory");
  enc.p->width = w;
  enc.p->height = h;
  enc.p->pix_fmt = AV_PIX_FMT_0RGB32;
  enc.p->time_base = AVRational{1, fps};
  st->time_base = enc.p->time_base;
  if (out.p->oformat->flags & AVFMT_GLOBALHEADER) enc.p->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  if (const int r = avcodec_open2(enc.p, codec, nullptr); r < 0)
    throw std::runtime_error(path + ": cannot open the FFV1 encoder (" + av_error_text(r) + ")");
  if (avcodec_parameters_from_context(st->codecpar, enc.p) < 0)
    throw std::runtime_error(path + ": cannot set the stream's parameters");
  if (!(out.p->oformat->flags & AVFMT_NOFILE))
    if (const int r = avio_open(&out.p->pb, path.c_str(), AVIO_FLAG_WRITE); r < 0)
      throw std::runtime_error(path + ": cannot write (" + av_error_text(r) + ")");
  if (const int r = avformat_write_header(out.p, nullptr); r < 0)
    throw std::runtime_error(path + ": cannot write the header (" + av_error_text(r) + ")");
  Frame frame;
  frame.p->format = AV_PIX_FMT_0RGB32;
  frame.p->width = w;
  frame.p->height = h;
  if (av_frame_get_buffer(frame.p, 0) < 0) throw std::runtime_error(path + ": out of memory");
  Packet packet;
  const auto flush = [&](const AVFrame* f) {
    if (const int r = avcodec_send_frame(enc.p, f); r < 0)
      throw std::runtime_error(path + ": cannot encode (" + av_error_text(r) + ")");
    for (;;) {
      const int r = avcodec_receive_packet(enc.p, packet.p);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      if (r < 0) throw std::runtime_error(path + ": cannot encode (" + av_error_text(r) + ")");
      av_packet_rescale_ts(packet.p, enc.p->time_base, st->time_base);
      packet.p->stream_index = st->index;
      if (const int wr = av_interleaved_write_frame(out.p, packet.p); wr < 0)
        throw std::runtime_error(path + ": cannot write (" + av_error_text(wr) + ")");
    }
  };
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (av_frame_make_writable(frame.p) < 0) throw std::runtime_error(path + ": out of memory");
    // 0RGB32: one native-endian 32-bit word per pixel, 0x00RRGGBB.
    for (int y = 0; y < h; ++y) {
      auto* row = reinterpret_cast<uint32_t*>(frame.p->data[0] + y * frame.p->linesize[0]);
      for (int x = 0; x < w; ++x) {
        const uint8_t* p = frames[k].rgb.data() + (std::size_t(y) * w + x) * 3;
        row[x] = (uint32_t(p[0]) << 16) | (uint32_t(p[1]) << 8) | uint32_t(p[2]);
      }
    }
    frame.p->pts = int64_t(k);
    flush(frame.p);
  }
  flush(nullptr);
  if (const int r = av_write_trailer(out.p); r < 0)
    throw std::runtime_error(path + ": cannot finish the file (" + av_error_text(r) + ")");
}

}  // namespace flowtune
