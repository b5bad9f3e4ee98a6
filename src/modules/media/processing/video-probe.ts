import { execFile } from 'node:child_process';

export interface VideoProbe {
  format: string;
  durationMs: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string;
  frameRate: number;
  videoBitrateKbps: number;
  audioBitrateKbps: number;
  totalBitrateKbps: number;
  audioSampleRate: number;
  channels: string;
}

export type ProbeOutcome =
  { kind: 'probed'; probe: VideoProbe } | { kind: 'unavailable' } | { kind: 'unreadable'; message: string };

const TIMEOUT_MS = 60_000;

function run(command: string, args: string[], maxBuffer: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'buffer', timeout: TIMEOUT_MS, maxBuffer }, (error, stdout) => {
      // A new Error keeps only the code: errors from child_process fail `instanceof Error` across realms (jest).
      if (error) reject(Object.assign(new Error(`${command} failed`), { code: (error as NodeJS.ErrnoException).code }));
      else resolve(stdout);
    });
  });
}

const notInstalled = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  sample_rate?: string;
  channels?: number;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: FfprobeStream[];
}

const kbps = (bits: string | undefined) => (bits && Number(bits) > 0 ? Math.round(Number(bits) / 1000) : 0);

function frameRate(value: string | undefined): number {
  const [num, den] = (value ?? '0/1').split('/').map(Number);
  return den ? Math.round((num / den) * 100) / 100 : 0;
}

/** Reads ffprobe's JSON into the Video `meta` fields. Pure, for tests. */
export function parseFfprobe(output: FfprobeOutput): VideoProbe | undefined {
  const video = output.streams?.find((s) => s.codec_type === 'video');
  if (!video) return undefined;
  const audio = output.streams?.find((s) => s.codec_type === 'audio');
  const rotation = Math.abs(Number(video.tags?.rotate ?? video.side_data_list?.find((d) => d.rotation)?.rotation ?? 0));
  const swap = rotation === 90 || rotation === 270;
  return {
    format: (output.format?.format_name ?? '').split(',')[0],
    durationMs: Math.round(Number(output.format?.duration ?? 0) * 1000) || 0,
    width: (swap ? video.height : video.width) ?? 0,
    height: (swap ? video.width : video.height) ?? 0,
    videoCodec: video.codec_name ?? '',
    audioCodec: audio?.codec_name ?? '',
    frameRate: frameRate(video.avg_frame_rate !== '0/0' ? video.avg_frame_rate : video.r_frame_rate),
    videoBitrateKbps: kbps(video.bit_rate),
    audioBitrateKbps: kbps(audio?.bit_rate),
    totalBitrateKbps: kbps(output.format?.bit_rate),
    audioSampleRate: Number(audio?.sample_rate ?? 0) || 0,
    channels: audio?.channels ? String(audio.channels) : '',
  };
}

export async function probeVideo(ffprobe: string, path: string): Promise<ProbeOutcome> {
  try {
    const stdout = await run(
      ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
      16 * 1024 * 1024,
    );
    const probe = parseFfprobe(JSON.parse(stdout.toString('utf8')) as FfprobeOutput);
    return probe ? { kind: 'probed', probe } : { kind: 'unreadable', message: 'no video stream' };
  } catch (error) {
    if (notInstalled(error)) return { kind: 'unavailable' };
    return { kind: 'unreadable', message: 'ffprobe could not read the file' };
  }
}

/** One PNG frame (at 1 s, or the first frame of a shorter video); undefined when ffmpeg is missing or fails. */
export async function extractFrame(ffmpeg: string, path: string, durationMs: number): Promise<Buffer | undefined> {
  const at = durationMs > 2000 ? '1' : '0';
  try {
    const png = await run(
      ffmpeg,
      ['-v', 'error', '-ss', at, '-i', path, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'],
      64 * 1024 * 1024,
    );
    return png.length ? png : undefined;
  } catch {
    return undefined;
  }
}
