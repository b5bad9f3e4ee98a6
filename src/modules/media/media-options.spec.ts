import { loadConfig } from '../../config/app-config';
import { loadMediaOptions } from './media-options';

const base = { PUBLIC_URL: 'https://guides.example.com/', MEDIA_DIR: '/srv/media' };
const config = loadConfig(base);
const withEnv = (env: Record<string, string>) => loadMediaOptions(loadConfig({ ...base, ...env }));

describe('media options', () => {
  it('needs no configuration: local disk, files served by the service', () => {
    expect(loadMediaOptions(config)).toEqual({
      storage: { kind: 'local', dir: '/srv/media' },
      filesBaseUrl: 'https://guides.example.com/api/2.0/media/files',
      publicUrl: 'https://guides.example.com',
      placeholderBaseUrl: 'https://guides.example.com/api/2.0/media/placeholders',
      uploadLimit: 50 * 1024 * 1024,
      maxImagePixels: 50_000_000,
      resizeConcurrency: 2,
      ffprobePath: 'ffprobe',
      ffmpegPath: 'ffmpeg',
    });
  });

  it('reads the S3 settings', () => {
    const options = withEnv({
      MEDIA_STORAGE: 'S3',
      MEDIA_S3_BUCKET: 'guides',
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_PREFIX: '/prod',
      MEDIA_PUBLIC_URL: 'https://cdn.example.com/guides/',
      MEDIA_MAX_PIXELS: '24000000',
    });
    expect(options.storage).toEqual({
      kind: 's3',
      bucket: 'guides',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      prefix: 'prod/',
    });
    expect(options.filesBaseUrl).toBe('https://cdn.example.com/guides');
    expect(options.maxImagePixels).toBe(24_000_000);
  });

  it('names every bad variable', () => {
    expect(() => withEnv({ MEDIA_STORAGE: 's3', MEDIA_PUBLIC_URL: 'nope', MEDIA_MAX_PIXELS: '12x' })).toThrow(
      /MEDIA_PUBLIC_URL: expected an absolute URL[\s\S]*MEDIA_MAX_PIXELS: expected an integer/,
    );
    expect(() => withEnv({ MEDIA_STORAGE: 'ftp' })).toThrow('MEDIA_STORAGE: expected local or s3');
    expect(() => withEnv({ MEDIA_STORAGE: 's3' })).toThrow('MEDIA_S3_BUCKET: required when MEDIA_STORAGE=s3');
  });
});
