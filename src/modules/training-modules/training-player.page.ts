import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, extname, join, posix } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { backgroundContext, requestContext } from '../../common/context/request-context';
import { Clock } from '../../platform/clock/clock';
import { escapeHtml } from '../pages/html';
import { TrainingModulesRepository } from './training-modules.repository';
import { TrainingPlayerService, type PlayerPageData } from './training-player.service';
import { checkContentSignature, checkPlayerSignature } from './training-signing';
import { TrainingStorage } from './training-storage';
import { PLAYER_SCRIPT } from './training-player.script';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** Where the content routes live on this service; TRAINING_CONTENT_URL points here (or to a proxy of it). */
export const CONTENT_PREFIX = '/training-content';

/** Package files may run scripts and forms, but stay sandboxed and never sniffed. */
const CONTENT_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-same-origin';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.xsd': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.pdf': 'application/pdf',
  '.swf': 'application/x-shockwave-flash',
};

const DIGITS = /^\d{1,12}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SCORM_AGAIN = join(dirname(require.resolve('scorm-again')), 'scorm-again.min.js');

/**
 * The player and package files (docs/enterprise/training-modules.md, Serving and the player), plain Fastify routes
 * outside /api/2.0 (like the HTML pages) under TRAINING_CONTENT_URL:
 *
 * - `/player/{registrationid}/{expires}/{sig}`: the player page. It hosts scorm-again (SCORM 1.2 `API`,
 *   2004 `API_1484_11`), resumes from the stored location and suspend data, frames the launch file and
 *   commits to the registration route with the commit token (it holds no API token).
 * - `/assets/scorm-again.min.js`: the runtime, served from node_modules.
 * - `/{versionid}/{expires}/{sig}/{path}`: package files, signed per version (so relative links work),
 *   valid 4 h, with a sandbox CSP and nosniff. No API credential is read or accepted here.
 */
@Injectable()
export class TrainingPlayerPage {
  private readonly storage: TrainingStorage;

  constructor(
    private readonly player: TrainingPlayerService,
    private readonly repository: TrainingModulesRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.storage = new TrainingStorage(config.training.dir);
  }

  register(fastify: FastifyInstance): void {
    fastify.get(`${CONTENT_PREFIX}/assets/scorm-again.min.js`, (_request, reply) => {
      reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'public, max-age=86400');
      return reply.send(createReadStream(SCORM_AGAIN));
    });
    fastify.get(`${CONTENT_PREFIX}/player/:registrationid/:expires/:sig`, (request, reply) => {
      const { registrationid, expires, sig } = request.params as Record<string, string>;
      return requestContext.run(backgroundContext('training-player'), () =>
        this.playerPage(reply, registrationid, expires, sig),
      );
    });
    fastify.get(`${CONTENT_PREFIX}/:versionid/:expires/:sig/*`, (request, reply) => {
      const params = request.params as Record<string, string>;
      return requestContext.run(backgroundContext('training-content'), () =>
        this.file(reply, params.versionid, params.expires, params.sig, params['*']),
      );
    });
  }

  private notFound(reply: FastifyReply, message = 'Not found') {
    return reply
      .code(404)
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .send({ error: true, message });
  }

  private forbidden(reply: FastifyReply) {
    return reply
      .code(403)
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .send({ error: true, message: 'The link is invalid or has expired' });
  }

  private async file(reply: FastifyReply, versionidText: string, expiresText: string, sig: string, rawPath: string) {
    if (!DIGITS.test(versionidText) || !DIGITS.test(expiresText)) return this.notFound(reply);
    const versionid = Number(versionidText);
    const expires = Number(expiresText);
    if (
      expires < this.clock.nowSeconds() ||
      !checkContentSignature(this.config.signingSecret, versionid, expires, sig)
    ) {
      return this.forbidden(reply);
    }
    const path = posix.normalize((rawPath ?? '').replace(/\\/g, '/'));
    if (!path || path === '.' || path.startsWith('..') || path.startsWith('/') || path.includes('\0')) {
      return this.notFound(reply);
    }
    const version = await this.repository.findVersion(versionid);
    if (!version || version.packageSha256 === null) return this.notFound(reply);
    const root = this.storage.version(version.moduleid, versionid);
    const target = join(root, ...path.split('/'));
    if (!target.startsWith(root + '/')) return this.notFound(reply);
    const info = await stat(target).catch(() => null);
    if (!info?.isFile()) return this.notFound(reply);
    reply
      .header('Content-Type', TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream')
      .header('Content-Length', info.size)
      .header('Content-Security-Policy', CONTENT_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', `private, max-age=${Math.max(0, Math.min(3600, expires - this.clock.nowSeconds()))}`);
    return reply.send(createReadStream(target));
  }

  private async playerPage(reply: FastifyReply, registrationid: string, expiresText: string, sig: string) {
    if (!UUID.test(registrationid) || !DIGITS.test(expiresText)) return this.notFound(reply);
    const expires = Number(expiresText);
    if (
      expires < this.clock.nowSeconds() ||
      !checkPlayerSignature(this.config.signingSecret, registrationid, expires, sig)
    ) {
      return this.forbidden(reply);
    }
    const data = await this.player.pageData(registrationid, expires);
    if (!data) return this.notFound(reply);
    const nonce = randomBytes(16).toString('base64');
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer')
      .header('Cache-Control', 'no-store')
      .header(
        'Content-Security-Policy',
        `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-src 'self' ${frameSource(data.launchFileUrl)}; connect-src ${origin(data.commitUrl)}; img-src 'self' data:; base-uri 'none'; form-action 'none'`,
      );
    return reply.send(renderPlayer(data, nonce, `${this.config.training.contentUrl}/assets/scorm-again.min.js`));
  }
}

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return "'none'";
  }
};

const frameSource = (url: string) => origin(url);

/** The player page: scorm-again set up before the package loads, and commits sent with the token. */
export function renderPlayer(data: PlayerPageData, nonce: string, runtimeUrl: string): string {
  const { registration, version } = data;
  const config = {
    api: data.api,
    standard: version.standard,
    launchUrl: data.launchFileUrl,
    launchMethod: version.launchMethod,
    commitUrl: data.commitUrl,
    commitToken: data.commitToken,
    masteryScore: version.masteryScore,
    resume: {
      location: registration.location,
      suspendData: registration.suspendData,
      status: registration.status,
    },
    learner: { id: String(registration.userid) },
  };
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(version.title)}</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  header { padding: 0.4rem 0.8rem; background: #1d2b36; color: #fff; display: flex; gap: 1rem; align-items: center; }
  header h1 { font-size: 1rem; margin: 0; flex: 1; }
  #status { font-size: 0.85rem; opacity: 0.85; }
  iframe { border: 0; width: 100%; height: calc(100% - 2.4rem); display: block; }
  #open { margin: 2rem; font-size: 1rem; }
</style>
</head>
<body>
<header><h1>${escapeHtml(version.title)}</h1><span id="status" data-status="${escapeHtml(registration.status)}">${escapeHtml(registration.status.replace('_', ' '))}</span></header>
<script type="application/json" id="player-config">${json}</script>
<script src="${escapeHtml(runtimeUrl)}"></script>
<script nonce="${nonce}">
${PLAYER_SCRIPT}</script>
</body>
</html>`;
}
