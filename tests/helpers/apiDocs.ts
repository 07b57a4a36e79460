/** The curl examples of docs/API.md, as the docs tests run them. */
export type DocCommand = { line: number; expect: number; command: string; section: string }

/** Each `# expect NNN` line in a ```sh block and the curl command under it (with its `\` continuations), with its `##` section. */
export function curlCommands(markdown: string): DocCommand[] {
  const commands: DocCommand[] = []
  const lines = markdown.split('\n')
  let inShell = false
  let section = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith('```')) {
      inShell = !inShell && line.trim() === '```sh'
      continue
    }
    if (!inShell && line.startsWith('## ')) section = line.slice(3).trim()
    const expectation = inShell ? /^# expect (\d{3})\b/.exec(line) : null
    if (!expectation) continue
    let command = ''
    let j = i + 1
    for (; j < lines.length && !lines[j]!.startsWith('```'); j++) {
      command += lines[j]!.replace(/\\$/, '') + ' '
      if (!lines[j]!.endsWith('\\')) break
    }
    commands.push({ line: i + 1, expect: Number(expectation[1]), command: command.trim(), section })
    i = j
  }
  return commands
}

const SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8,
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8,
  webp: (b) => b.subarray(0, 4).toString() === 'RIFF' && b.subarray(8, 12).toString() === 'WEBP',
  gif: (b) => b.subarray(0, 4).toString() === 'GIF8',
  svg: (b) => /^\s*(<\?xml[^>]*>\s*)?<svg\b/.test(b.subarray(0, 512).toString('utf8')),
  json: (b) => {
    try {
      JSON.parse(b.toString('utf8'))
      return true
    } catch {
      return false
    }
  },
}

/** The file a command saves with `-o <name>`, if any. */
export const outputFileOf = (command: string): string | undefined => /(?:^|\s)-o\s+(\S+)/.exec(command)?.[1]

/** Whether a saved file's bytes are what its extension says (unknown extensions pass). */
export function contentMatchesName(name: string, bytes: Buffer): boolean {
  const check = SIGNATURES[name.split('.').pop()!.toLowerCase()]
  return check ? check(bytes) : true
}
