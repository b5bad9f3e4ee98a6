import { Injectable } from '@nestjs/common';
import { DemoSeed } from '../../database/seed/demo-seed.decorator';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { MediaService } from '../media/media.service';
import { TeamsService } from '../teams/teams.service';
import { UsersService } from '../users/users.service';
import type { CreateWikiDto } from './dto/wiki-body.dto';
import type { WikiNamespace } from './wiki-namespaces';
import { WikiWriterService } from './wiki-writer.service';

type Category = [title: string, parent: string | null, description: string, extra?: Partial<CreateWikiDto>];

const CATEGORIES: Category[] = [
  ['Electronics', null, 'Phones, computers and other devices with a circuit board.'],
  ['Phone', 'Electronics', 'Mobile phones of every make.'],
  ['iPhone', 'Phone', "Apple's line of smartphones."],
  [
    'iPhone 6',
    'iPhone',
    'The iPhone 6, released in September 2014.',
    {
      contents:
        "The iPhone 6 has a 4.7'' display. See the [wiki|ITEM|Pentalobe P2 Screwdriver|pentalobe screwdriver] for its bottom screws.\n\n" +
        '== Identification ==\n\nModel numbers A1549, A1586 and A1589 are printed on the back. The sleep/wake button is on the right side.\n\n' +
        '== Background ==\n\nThe first iPhone with a display larger than four inches.',
      info: [
        { name: 'Released', value: 'September 19, 2014' },
        { name: 'Model numbers', value: 'A1549, A1586, A1589' },
      ],
      repairability_score: 7,
    },
  ],
  ['iPhone 6s', 'iPhone', 'The iPhone 6s, released in September 2015.'],
  ['Android Phone', 'Phone', 'Phones running Android.'],
  ['Samsung Galaxy S5', 'Android Phone', 'Samsung flagship of 2014.'],
  ['Computer', 'Electronics', 'Desktops and laptops.'],
  ['Laptop', 'Computer', 'Portable computers.'],
  ['MacBook Pro 13 Retina', 'Laptop', "Apple's 13-inch MacBook Pro with Retina display."],
  ['Appliances', null, 'Household appliances.'],
  ['Washing Machine', 'Appliances', 'Front- and top-loading washers.'],
  ['Refrigerator', 'Appliances', 'Fridges and freezers.'],
  ['Dishwasher', 'Appliances', 'Not written yet.', { flags: ['WIKI_STUB'] }],
];

const TOOLS: [string, string][] = [
  ['Phillips 000 Screwdriver', 'A small Phillips screwdriver for electronics.'],
  ['Pentalobe P2 Screwdriver', 'Opens the bottom screws of recent iPhones.'],
  ['Spudger', 'A plastic prying tool that does not scratch or short circuits.'],
  ['Tweezers', 'For connectors and small screws.'],
  ['Suction Handle', 'Lifts displays and glass panels.'],
  ['iOpener', 'A heat pack that softens adhesive.'],
];

const GERMAN: Record<string, string> = {
  Electronics: 'Elektronik',
  Phone: 'Telefon',
  Appliances: 'Haushaltsgeräte',
  'Washing Machine': 'Waschmaschine',
  Refrigerator: 'Kühlschrank',
};

/** Demo content (order 30): a category tree, tools, and a page in every namespace, all through the writer service. */
@Injectable()
export class WikisDemoSeed {
  constructor(
    private readonly users: UsersService,
    private readonly teams: TeamsService,
    private readonly writer: WikiWriterService,
    private readonly media: MediaService,
  ) {}

  @DemoSeed({ name: 'wikis', order: 30 })
  async run(): Promise<void> {
    const admin = await this.demoAdmin();
    if (!admin) return;
    const images = await this.media.imageIdsOf(admin.userid, 5).catch(() => [] as number[]);
    const create = (namespace: WikiNamespace, title: string, fields: Partial<CreateWikiDto> = {}) =>
      this.writer.create({ namespace, title, contents: '', ...fields }, admin);

    for (const [index, [title, parent, description, extra]] of CATEGORIES.entries()) {
      const created = await create('CATEGORY', title, {
        description,
        contents: `The ${title} category.`,
        ...(parent ? { parent } : {}),
        ...(images.length ? { image: images[index % images.length] } : {}),
        ...extra,
      });
      if (GERMAN[title]) {
        await this.writer.update(
          'CATEGORY',
          title,
          { display_title: GERMAN[title] },
          { langid: 'de', revisionid: created.revisionid },
          admin,
        );
      }
    }
    for (const [title, description] of TOOLS) {
      await create('ITEM', title, {
        description,
        contents: `'''${title}''': ${description}`,
        info: [{ name: 'Type', value: 'Tool' }],
      });
    }
    await create('INFO', 'About', {
      description: 'About this site.',
      contents: '== About ==\n\nA self-hosted repair guide site.',
    });
    await create('INFO', 'Licensing', {
      description: 'Content licence.',
      contents: 'Guides are licensed under CC BY-NC-SA 3.0.',
    });
    await create('WIKI', 'Getting Started', {
      description: 'Where to begin.',
      contents:
        '== Welcome ==\n\nStart with the [wiki|CATEGORY|Electronics|Electronics] category, or read [wiki|INFO|About|about this site].\n\n' +
        '* Find your device\n* Pick a guide\n* Gather the [wiki|ITEM|Spudger|tools]',
    });
    await create('USER', String(admin.userid), { contents: `Hi, I am ${admin.username} and I run this site.` });
    const team = await this.teams.firstTeam();
    if (team) await create('TEAM', String(team.teamid), { contents: `The ${team.name} team.` });
  }

  private demoAdmin(): Promise<AuthenticatedUser | undefined> {
    return this.users.firstAdmin();
  }
}
