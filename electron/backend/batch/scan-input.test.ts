import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, manifestPhotoPath, scanInput } from './scan-input.js';
import { validatePerson } from './validate-person.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
let dir: string;
const file = (relative: string, data: string | Buffer = JPEG) => {
  const target = path.join(dir, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, data);
  return target;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'scan-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('scanInput: a folder of people', () => {
  it('matches every naming variant, case-insensitively, with any of the four extensions', () => {
    file('a/FRONTAL.JPG');
    file('a/side1.jpeg');
    file('a/Side_2.webp');
    file('b/frontal.png');
    file('b/SIDE-1.PNG');
    file('b/side2.jpg');
    file('b/notes.txt', 'hello');
    file('b/side-3.jpg');
    const scanned = scanInput(dir);
    expect(scanned.kind).toBe('folder');
    expect(scanned.people.map((p) => p.person)).toEqual(['a', 'b']);
    const [a, b] = scanned.people;
    expect(Object.keys(a!.photos).sort()).toEqual(['frontal', 'side1', 'side2']);
    expect(path.basename(a!.photos.side2!)).toBe('Side_2.webp');
    expect(path.basename(b!.photos.side1!)).toBe('SIDE-1.PNG');
    expect(a!.problem).toBeNull();
  });

  it('refuses two photos for one slot', () => {
    file('a/frontal.jpg');
    file('a/Frontal.png');
    expect(scanInput(dir).people[0]!.problem).toMatch(/Two frontal photos/);
  });

  it('reads person.json and reports a bad one with its reason', () => {
    file(
      'good/person.json',
      JSON.stringify({ name: 'Good One', body_type: 'female', telephoto: true }),
    );
    file('broken/person.json', '{ not json');
    file('wrong/person.json', JSON.stringify({ body_type: 'robot' }));
    file('extra/person.json', JSON.stringify({ nickname: 'x' }));
    const byKey = Object.fromEntries(scanInput(dir).people.map((p) => [p.person, p]));
    expect(byKey.good).toMatchObject({
      name: 'Good One',
      bodyType: 'female',
      telephoto: true,
      problem: null,
    });
    expect(byKey.broken!.problem).toMatch(/person\.json is not valid JSON/);
    expect(byKey.wrong!.problem).toMatch(/person\.json: body_type/);
    expect(byKey.extra!.problem).toMatch(/person\.json/);
  });

  it('is a usage error when the input does not exist or is not a folder or CSV', () => {
    expect(() => scanInput(path.join(dir, 'missing'))).toThrow(InputError);
    expect(() => scanInput(file('x.txt', 'x'))).toThrow(InputError);
  });
});

describe('scanInput: a CSV manifest', () => {
  it('reads the columns, paths relative to the CSV', () => {
    file('photos/p1/f.jpg');
    file('photos/p1/s1.jpg');
    file('photos/p1/s2.jpg');
    const csv = file(
      'list/../manifest.csv',
      'person,frontal,side_1,side_2,body_type,telephoto,name\r\n' +
        'p1,photos/p1/f.jpg,photos/p1/s1.jpg,photos/p1/s2.jpg,Female,true,"Doe, Jane"\r\n' +
        'p2,photos/p2/f.jpg,,,,,\r\n',
    );
    const scanned = scanInput(csv);
    expect(scanned.kind).toBe('manifest');
    const [p1, p2] = scanned.people;
    expect(p1).toMatchObject({
      person: 'p1',
      name: 'Doe, Jane',
      bodyType: 'female',
      telephoto: true,
      problem: null,
    });
    expect(p1!.photos.frontal).toBe(path.join(dir, 'photos/p1/f.jpg'));
    expect(p2).toMatchObject({ person: 'p2', bodyType: null, problem: null });
    expect(p2!.photos.side1).toBeUndefined();
  });

  it('refuses paths that leave the CSV folder, absolute paths, bad keys and repeated people', () => {
    const csv = file(
      'manifest.csv',
      'person,frontal,side_1,side_2,body_type\n' +
        'a,../etc/passwd,/etc/hosts,x.jpg,male\n' +
        '../evil,f.jpg,s1.jpg,s2.jpg,male\n' +
        'b,f.jpg,s1.jpg,s2.jpg,alien\n' +
        'b,f.jpg,s1.jpg,s2.jpg,male\n',
    );
    const [a, evil, b, again] = scanInput(csv).people;
    expect(a!.problem).toMatch(/leaves the CSV's folder/);
    expect(a!.problem).toMatch(/absolute/);
    expect(evil!.problem).toMatch(/not a plain folder name/);
    expect(b!.problem).toMatch(/body_type must be male or female/);
    expect(again!.problem).toMatch(/listed twice/);
  });

  it('is a usage error without the required columns', () => {
    const csv = file('m.csv', 'who,frontal\nx,y\n');
    expect(() => scanInput(csv)).toThrow(/no column person/);
  });

  it('manifestPhotoPath keeps paths inside the folder', () => {
    expect(manifestPhotoPath('/data', 'a/b.jpg')).toBe('/data/a/b.jpg');
    expect(manifestPhotoPath('/data', 'a/../../b.jpg')).toEqual({
      problem: expect.stringMatching(/leaves/),
    });
    expect(manifestPhotoPath('/data', 'C:\\x.jpg')).toEqual({
      problem: expect.stringMatching(/absolute/),
    });
  });
});

describe('validatePerson', () => {
  const scanned = () => scanInput(dir).people[0]!;
  it('needs all three photos', async () => {
    file('p/frontal.jpg');
    expect((await validatePerson(scanned(), 'male')).problem).toBe(
      'Missing photos: side-1, side-2.',
    );
  });
  it('refuses a file that is not an image by its bytes, whatever its name', async () => {
    file('p/frontal.jpg', 'just text');
    file('p/side-1.jpg');
    file('p/side-2.jpg');
    expect((await validatePerson(scanned(), 'male')).problem).toMatch(
      /frontal photo frontal\.jpg is not a JPEG/,
    );
  });
  it('refuses an empty file', async () => {
    file('p/frontal.jpg', Buffer.alloc(0));
    file('p/side-1.jpg');
    file('p/side-2.jpg');
    expect((await validatePerson(scanned(), 'male')).problem).toMatch(/empty/);
  });
  it('needs a body type from person.json or the default', async () => {
    file('p/frontal.jpg');
    file('p/side-1.jpg');
    file('p/side-2.jpg');
    expect((await validatePerson(scanned(), null)).problem).toMatch(/No body type/);
    expect(await validatePerson(scanned(), 'female')).toMatchObject({
      problem: null,
      bodyType: 'female',
    });
    file('p/person.json', JSON.stringify({ body_type: 'male' }));
    expect(await validatePerson(scanned(), 'female')).toMatchObject({
      problem: null,
      bodyType: 'male',
    });
  });
});
