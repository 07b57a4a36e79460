/** XML Schema validation with Debian's xmllint (installed by scripts/ensure-xmllint.sh when missing). */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

// The sitemaps.org protocol's own schema, as the `sitemap` package ships it (a devDependency for this file alone).
export const SITEMAP_XSD = path.resolve('node_modules/sitemap/schema/sitemap.xsd')
export const SITEMAP_INDEX_XSD = path.resolve('tests/fixtures/siteindex.xsd')

export function ensureXmllint(): void {
  const result = spawnSync('bash', ['scripts/ensure-xmllint.sh'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('xmllint is missing and could not be installed')
}

export function validateXml(xml: string, schema: string): { valid: boolean; output: string } {
  const result = spawnSync('xmllint', ['--noout', '--schema', schema, '-'], { input: xml, encoding: 'utf8' })
  return { valid: result.status === 0, output: `${result.stdout}${result.stderr}` }
}
