import { Matches } from 'class-validator';
import { MayBeAbsent } from '@wp/http';

/** Query of `GET /wallets/{addressHash}` (docs/api.md § Wallets). */
export class GetWalletQuery {
  /**
   * A timestamp (any short token is accepted) a client adds to skip its own cache; the server
   * never serves wallets from a cache, so it changes nothing here.
   */
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9:._+-]{1,64}$/, {
    message: 'cache_bust must be a timestamp (letters, digits, : . _ + -; at most 64)',
  })
  cache_bust?: string;
}
