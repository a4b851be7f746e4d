import type { TestApp } from '../../helpers';
import { createIntegration, definitionNamed, ok, type Integration } from '../helpers';
import type { SftpPeer } from '../peers/sftp';

/** An SFTP integration reading files of one folder of the peer, created and its datasets discovered. */
export async function sftpIntegration(
  t: TestApp,
  cookie: string,
  peer: SftpPeer,
  options: { name: string; schemaName?: string; folder: string; pattern: string; format: string },
): Promise<Integration> {
  const definition = await definitionNamed(t, cookie, 'SFTP');
  const created = ok(
    await createIntegration(t, cookie, {
      integrationDefinitionId: definition.id,
      name: options.name,
      schemaName: options.schemaName ?? options.name,
      configuration: {
        host: peer.host,
        port: peer.port,
        username: peer.user,
        authentication: { type: 'password', password: peer.password },
        folder: options.folder,
        file_pattern: options.pattern,
        format: options.format,
      },
    }),
    201,
  );
  await t.services.integrations.idle();
  return created;
}
