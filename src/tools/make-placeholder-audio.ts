/**
 * Writes short silent MP3 placeholders for every track in music.json, so the asset host's
 * /audio/music/{normal,combat}/ paths resolve. Run: `npm exec -- node src/tools/make-placeholder-audio.ts`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// One MPEG-1 Layer III frame, 128 kbit/s, 44.1 kHz, mono, no CRC: 417 bytes. With all-zero side information
// the frame decodes to silence. 20 frames ≈ 0.5 s.
const FRAME_HEADER = Buffer.from([0xff, 0xfb, 0x90, 0xc0]);
const FRAME_BYTES = 417;
const FRAMES = 20;

export function silentMp3(frames = FRAMES): Buffer {
  const frame = Buffer.alloc(FRAME_BYTES);
  FRAME_HEADER.copy(frame);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

export async function writePlaceholderAudio(assetsDir: string): Promise<string[]> {
  const tracks = JSON.parse(await readFile(join(assetsDir, 'manifests', 'music.json'), 'utf8')) as { file: string }[];
  const written: string[] = [];
  for (const track of tracks) {
    const file = join(assetsDir, 'audio', 'music', track.file);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, silentMp3());
    written.push(file);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = await writePlaceholderAudio(resolve(process.env.WORLD ?? 'world', 'assets'));
  console.log(`wrote ${files.length} placeholder tracks`);
}
