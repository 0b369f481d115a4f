import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Housekeeping of refresh token families (docs/auth.md § Benchmark: PostgreSQL rows and gateway
 * work per refresh): run by `SessionsService`'s periodic job, apart from the per-request
 * statements of `SessionsRepository`.
 */
@Injectable()
export class SessionPurgeRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Housekeeping: forgets the sealed pairs whose grace window closed, deletes expired families.
   * Rotations are found through the time their token was issued
   * (`refresh_token_rotation_issued_idx`; the family's own columns are not indexed, so that
   * rotations are HOT updates), within the last `lookbackSeconds` before the window closed.
   * @param graceSeconds `REFRESH_GRACE_SECONDS`
   * @param lookbackSeconds how far back from the window's end rotations are looked for; null:
   *   every family, a sequential scan (a process's first purge: nothing before it is missed)
   */
  async purge(graceSeconds: number, lookbackSeconds: number | null): Promise<void> {
    if (lookbackSeconds === null) {
      await this.dataSource.query(
        `UPDATE refresh_token_family SET grace_response = NULL
          WHERE grace_response IS NOT NULL AND rotated_at < now() - make_interval(secs => $1)`,
        [graceSeconds],
      );
    } else {
      // The families as an array of ids: always probed through the primary key, never a scan.
      await this.dataSource.query(
        `UPDATE refresh_token_family SET grace_response = NULL
          WHERE id = ANY (ARRAY(
                  SELECT family_id FROM refresh_token
                   WHERE generation > 0
                     AND issued_at >= now() - make_interval(secs => $2)
                     AND issued_at < now() - make_interval(secs => $1)))
            AND grace_response IS NOT NULL
            AND rotated_at < now() - make_interval(secs => $1)`,
        [graceSeconds, graceSeconds + lookbackSeconds],
      );
    }
    await this.dataSource.query(`DELETE FROM refresh_token_family WHERE expires_at < now()`);
  }
}
