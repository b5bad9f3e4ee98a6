import { XMLParser } from 'fast-xml-parser';
import { launchTarget, shownPath } from './launch-target';
import { PackageError, type DescriptorReport, type PackageLimits, type PackageWarnings } from './package-types';

export type DescriptorKind = 'cmi5' | 'scorm' | 'xapi';

/**
 * Reads a package descriptor (cmi5.xml, imsmanifest.xml or tincan.xml). Every step is linear in the text,
 * and the number of SCOs or AUs is capped (TOO_MANY_SCOS). Launch paths that are not content are refused
 * with LAUNCH_FILE_MISSING; whether the launch file exists is the caller's check.
 */
export function readDescriptor(
  kind: DescriptorKind,
  xml: string,
  name: string,
  limits: PackageLimits,
): DescriptorReport {
  const doc = parseXml(xml, name);
  if (kind === 'scorm') return readScorm(doc, xml, limits);
  if (kind === 'cmi5') return readCmi5(doc, limits);
  return readTincan(doc);
}

type Node = Record<string, unknown>;

/** The key under which an AU carries its position in the text (`#` cannot start an XML name). */
const ORDER = '#order';

function parseXml(xml: string, name: string): Node {
  let count = 0;
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    // The parser groups elements by name, losing their order: AUs are numbered as they are read.
    updateTag: (tag, _path, attributes: Record<string, unknown>) => {
      if (tag === 'au') attributes[ORDER] = count++;
      return tag;
    },
  });
  try {
    return parser.parse(xml, true) as Node;
  } catch (error) {
    const detail =
      typeof error === 'object' && error && 'err' in error ? JSON.stringify(error.err) : (error as Error).message;
    throw new PackageError('MANIFEST_INVALID', `${name} is not well-formed XML: ${detail}`);
  }
}

const list = (value: unknown): Node[] =>
  value === undefined || value === null
    ? []
    : ((Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'object' && v !== null) as Node[]);

const text = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
  if (Array.isArray(value)) return text(value[0]);
  if (typeof value === 'object') {
    const node = value as Node;
    if ('#text' in node) return text(node['#text']);
    if ('langstring' in node) return text(node.langstring);
    if ('string' in node) return text(node.string);
  }
  return null;
};

const attr = (node: Node | undefined, name: string): string | null => {
  if (!node) return null;
  const value = node[`@${name}`];
  return typeof value === 'string' ? value.trim() : null;
};

/** Every node of a tree of `child` elements, parents first, without recursion (nesting depth is the author's). */
function flatten(roots: Node[], child: string): Node[] {
  const out: Node[] = [];
  const stack = [...roots].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    out.push(node);
    const children = list(node[child]);
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]);
  }
  return out;
}

const tooMany = (count: number, what: string, limits: PackageLimits) =>
  new PackageError('TOO_MANY_SCOS', `The package has ${count} ${what} (at most ${limits.maxScos})`);

/** A launch path that is not content (another scheme, or outside the package) is refused. */
function requireContent(standard: string, launchPath: string, what: string): void {
  if (!launchTarget(standard, launchPath)) {
    const where = standard === 'cmi5' ? 'a file of the package or an http(s) URL' : 'a file of the package';
    throw new PackageError('LAUNCH_FILE_MISSING', `${what} ${shownPath(launchPath)} is not ${where}`);
  }
}

const joinBase = (...parts: (string | null)[]) =>
  parts
    .filter((p): p is string => !!p)
    .reduce((acc, part) => (acc && !acc.endsWith('/') ? `${acc}/${part}` : acc + part), '');

function scormVersion(
  manifest: Node,
  xml: string,
): { standard: 'scorm12' | 'scorm2004'; schemaversion: string | null } {
  const schemaversion = text(list(manifest.metadata)[0]?.schemaversion);
  if (schemaversion === '1.2') return { standard: 'scorm12', schemaversion };
  if (schemaversion && (/^CAM 1\.3$/i.test(schemaversion) || /^2004\b/.test(schemaversion)))
    return { standard: 'scorm2004', schemaversion };
  if (/adlcp_rootv1p2/i.test(xml)) return { standard: 'scorm12', schemaversion };
  if (/adlcp_v1p3/i.test(xml)) return { standard: 'scorm2004', schemaversion };
  throw new PackageError(
    'MANIFEST_INVALID',
    'The SCORM version is neither 1.2 nor 2004 (schemaversion and namespaces)',
  );
}

function readScorm(doc: Node, xml: string, limits: PackageLimits): DescriptorReport {
  const manifest = list(doc.manifest)[0];
  if (!manifest) throw new PackageError('MANIFEST_INVALID', 'imsmanifest.xml has no <manifest> element');
  const { standard, schemaversion } = scormVersion(manifest, xml);
  const organizations = list(manifest.organizations)[0];
  const orgs = list(organizations?.organization);
  const defaultId = attr(organizations, 'default');
  const org = orgs.find((o) => attr(o, 'identifier') === defaultId) ?? orgs[0];
  const resourcesNode = list(manifest.resources)[0];
  const resources = list(resourcesNode?.resource);
  const scoType = (r: Node) => (attr(r, 'scormtype') ?? attr(r, 'scormType') ?? '').toLowerCase();
  const scoResources = resources.filter((r) => scoType(r) === 'sco');
  if (scoResources.length > limits.maxScos) throw tooMany(scoResources.length, 'SCOs', limits);
  const items = flatten(list(org?.item), 'item');
  const first = items.find((item) => attr(item, 'identifierref'));
  if (!first) throw new PackageError('LAUNCH_FILE_MISSING', 'The organization has no item that references a resource');
  const byId = new Map<string, Node>();
  for (const r of resources) {
    const id = attr(r, 'identifier');
    if (id !== null && !byId.has(id)) byId.set(id, r);
  }
  const base = (r: Node) =>
    joinBase(attr(manifest, 'xml:base') ?? attr(manifest, 'base'), attr(resourcesNode, 'base'), attr(r, 'base'));
  // Every resource the player could launch (a SCO, or one an item references) must be a file of the package.
  const referenced = new Set(items.map((item) => attr(item, 'identifierref')));
  for (const r of resources) {
    const href = attr(r, 'href');
    if (href && (scoType(r) === 'sco' || referenced.has(attr(r, 'identifier'))))
      requireContent(standard, joinBase(base(r), href), `The launch file of resource ${attr(r, 'identifier')}`);
  }
  const resource = byId.get(attr(first, 'identifierref')!);
  const href = attr(resource, 'href');
  if (!resource || !href) {
    throw new PackageError(
      'LAUNCH_FILE_MISSING',
      `The resource ${attr(first, 'identifierref')} of the first item has no href`,
    );
  }
  let launch = joinBase(base(resource), href);
  const parameters = attr(first, 'parameters');
  if (parameters) {
    const p = parameters.replace(/^[?&]/, '');
    launch += parameters.startsWith('#') ? parameters : `${launch.includes('?') ? '&' : '?'}${p}`;
  }
  requireContent(standard, launch, 'The launch file');
  const titles = new Map(items.map((item) => [attr(item, 'identifierref'), text(item.title) ?? '']));
  const scos = scoResources.map((r) => ({
    identifier: attr(r, 'identifier') ?? '',
    title: titles.get(attr(r, 'identifier')) ?? '',
    href: attr(r, 'href') ?? '',
  }));
  const warnings: PackageWarnings = [];
  if (scos.length > 1)
    warnings.push({ code: 'MULTI_SCO', message: `The package has ${scos.length} SCOs; the player launches the first` });
  if (standard === 'scorm2004' && /<(\w+:)?sequencing[\s/>]/i.test(xml)) {
    warnings.push({ code: 'SEQUENCING_IGNORED', message: 'SCORM 2004 sequencing rules are ignored' });
  }
  return {
    manifest: {
      identifier: attr(manifest, 'identifier'),
      title: text(org?.title) ?? null,
      standard,
      schemaversion,
      scos,
      launch_path: launch,
    },
    warnings,
    masteryScore: null,
    moveOn: null,
  };
}

function readCmi5(doc: Node, limits: PackageLimits): DescriptorReport {
  const structure = list(doc.courseStructure)[0];
  if (!structure) throw new PackageError('MANIFEST_INVALID', 'cmi5.xml has no <courseStructure> element');
  const course = list(structure.course)[0];
  const aus = flatten([structure], 'block').flatMap((node) => list(node.au));
  if (aus.length > limits.maxScos) throw tooMany(aus.length, 'AUs', limits);
  aus.sort((a, b) => (a[ORDER] as number) - (b[ORDER] as number));
  if (!aus.length) throw new PackageError('LAUNCH_FILE_MISSING', 'cmi5.xml has no <au>');
  const first = aus[0];
  const url = text(first.url);
  if (!url) throw new PackageError('LAUNCH_FILE_MISSING', 'The first AU has no url');
  let external = false;
  for (const au of aus) {
    const auUrl = text(au.url);
    if (!auUrl) continue;
    requireContent('cmi5', auUrl, `The url of AU ${attr(au, 'id') ?? ''}`.trimEnd());
    external ||= launchTarget('cmi5', auUrl)?.kind === 'external';
  }
  const warnings: PackageWarnings = [];
  if (external) {
    warnings.push({
      code: 'EXTERNAL_AU',
      message: 'An AU has an absolute URL; it is launched from outside the package',
    });
  }
  if (aus.length > 1)
    warnings.push({ code: 'MULTI_SCO', message: `The course has ${aus.length} AUs; the player launches the first` });
  const mastery = attr(first, 'masteryScore');
  const masteryScore =
    mastery !== null && /^(0(\.\d+)?|1(\.0+)?)$/.test(mastery) ? Math.round(Number(mastery) * 100) : null;
  return {
    manifest: {
      identifier: attr(course, 'id'),
      title: text(course?.title),
      standard: 'cmi5',
      schemaversion: null,
      scos: aus.map((au) => ({
        identifier: attr(au, 'id') ?? '',
        title: text(au.title) ?? '',
        href: text(au.url) ?? '',
      })),
      launch_path: url,
    },
    warnings,
    masteryScore,
    moveOn: attr(first, 'moveOn'),
  };
}

function readTincan(doc: Node): DescriptorReport {
  const tincan = list(doc.tincan)[0];
  if (!tincan) throw new PackageError('MANIFEST_INVALID', 'tincan.xml has no <tincan> element');
  const activities = list(list(tincan.activities)[0]?.activity);
  const launchable = activities.find((a) => text(a.launch));
  if (!launchable) throw new PackageError('LAUNCH_FILE_MISSING', 'tincan.xml has no activity with a launch');
  const launch = text(launchable.launch)!;
  requireContent('xapi', launch, 'The launch file');
  return {
    manifest: {
      identifier: attr(launchable, 'id'),
      title: text(launchable.name),
      standard: 'xapi',
      schemaversion: null,
      scos: [],
      launch_path: launch,
    },
    warnings: [],
    masteryScore: null,
    moveOn: null,
  };
}
