import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes of the files under `folder` (0 when it does not exist). Symbolic links are not followed, so
 * the size is what the folder itself holds; files that vanish while it is read (a finished export)
 * are skipped.
 */
export async function folderSize(folder: string): Promise<number> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += await folderSize(full);
    else if (entry.isFile()) {
      try {
        total += (await fs.stat(full)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  return total;
}
