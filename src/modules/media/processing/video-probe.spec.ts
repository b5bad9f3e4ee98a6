import { parseFfprobe, probeVideo } from './video-probe';

describe('video probe', () => {
  it('maps ffprobe output to the meta fields (rotated phone video: width and height swapped)', () => {
    expect(
      parseFfprobe({
        format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '2.469', bit_rate: '10811000' },
        streams: [
          {
            codec_type: 'video',
            codec_name: 'h264',
            width: 1280,
            height: 720,
            avg_frame_rate: '30000/1001',
            bit_rate: '10491000',
            tags: { rotate: '90' },
          },
          { codec_type: 'audio', codec_name: 'aac', sample_rate: '44100', channels: 2, bit_rate: '320000' },
        ],
      }),
    ).toEqual({
      format: 'mov',
      durationMs: 2469,
      width: 720,
      height: 1280,
      videoCodec: 'h264',
      audioCodec: 'aac',
      frameRate: 29.97,
      videoBitrateKbps: 10491,
      audioBitrateKbps: 320,
      totalBitrateKbps: 10811,
      audioSampleRate: 44100,
      channels: '2',
    });
    expect(parseFfprobe({ streams: [{ codec_type: 'audio' }] })).toBeUndefined();
  });

  it('says when ffprobe is not installed', async () => {
    expect(await probeVideo('/nonexistent/ffprobe', '/tmp/x')).toEqual({ kind: 'unavailable' });
  });
});
