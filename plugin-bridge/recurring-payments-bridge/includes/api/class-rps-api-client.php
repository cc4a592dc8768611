<?php
defined( 'ABSPATH' ) || exit;

/**
 * The service's API v2, through WordPress's HTTP API. Every failure is an RPS_Api_Error; a POST
 * carries an Idempotency-Key chosen by the caller from its own record, so a retry after a lost
 * answer never makes a second customer or payment.
 */
final class RPS_Api_Client {

	private const TIMEOUT_SECONDS = 20;
	/** Calls made while a page renders (checkout, order screen, admin page): the page never waits longer. */
	public const QUICK_TIMEOUT_SECONDS = 3;
	/** After no answer to a quick call, quick calls are not made for this long: the next pages render at once. */
	public const UNREACHABLE_SECONDS = 60;
	public const UNREACHABLE_TRANSIENT = 'rps_unreachable';
	/** The service's code for "this account has no connected store" (409). */
	public const NOT_CONNECTED = 'shop_not_connected';

	public function __construct(
		private readonly string $service_url,
		private readonly string $token,
		private readonly bool $quick = false
	) {}

	public static function from_settings(): self {
		return new self( (string) RPS_Settings::get( 'service_url' ), (string) RPS_Settings::get( 'api_token' ) );
	}

	/**
	 * The same client for calls made while a page renders: a short timeout, and after no answer (or
	 * the service's own outage) no call at all for a minute, so a slow or stopped service never holds
	 * up the checkout or the order screen.
	 */
	public function quick(): self {
		return new self( $this->service_url, $this->token, true );
	}

	/** @return array<string, mixed> */
	public function get( string $path ): array {
		return $this->request( 'GET', $path, null, null );
	}

	/** @return array<string, mixed> */
	public function delete( string $path ): array {
		return $this->request( 'DELETE', $path, null, null );
	}

	/**
	 * A DELETE that carries a JSON body (the subscription's cancel takes `cancel_at`).
	 *
	 * @param array<string, mixed> $body
	 * @return array<string, mixed>
	 */
	public function delete_json( string $path, array $body ): array {
		return $this->request( 'DELETE', $path, $body, null );
	}

	/**
	 * @param array<string, mixed> $body
	 * @return array<string, mixed>
	 */
	public function post( string $path, array $body, ?string $idempotency_key = null ): array {
		return $this->request( 'POST', $path, $body, $idempotency_key );
	}

	/**
	 * The buyer's customer in the service, found by e-mail address or created (with the order's
	 * billing name). The address is lower-cased both times, so the lookup finds what was made.
	 *
	 * @param array{first_name: string, last_name: string, email: string} $buyer
	 * @return array<string, mixed>
	 */
	public function find_or_create_customer( array $buyer ): array {
		$email = strtolower( trim( $buyer['email'] ) );
		$found = $this->get( '/api/v2/customers?email=' . rawurlencode( $email ) . '&per_page=1' );
		if ( ! empty( $found['data'][0] ) && is_array( $found['data'][0] ) ) {
			return $found['data'][0];
		}
		$body = array(
			'first_name' => $buyer['first_name'],
			'last_name'  => $buyer['last_name'],
			'email'      => $email,
		);
		// One key per address: two checkouts of one new buyer at once make one customer.
		return $this->post( '/api/v2/customers', $body, 'wc-customer-' . hash( 'sha256', $email ) );
	}

	/**
	 * @param array<string, mixed>|null $body
	 * @return array<string, mixed>
	 */
	private function request( string $method, string $path, ?array $body, ?string $idempotency_key ): array {
		if ( '' === $this->service_url || '' === $this->token ) {
			throw new RPS_Api_Error( 'The service address or API token is not set', 0, 'not_configured' );
		}
		if ( $this->quick && false !== get_transient( self::UNREACHABLE_TRANSIENT ) ) {
			throw new RPS_Api_Error( 'The service did not answer a moment ago; it is asked again in a minute', 0, 'unreachable' );
		}
		$headers = array(
			'Authorization' => 'Bearer ' . $this->token,
			'Accept'        => 'application/json',
		);
		$args = array(
			'method'      => $method,
			'timeout'     => $this->quick ? self::QUICK_TIMEOUT_SECONDS : self::TIMEOUT_SECONDS,
			'redirection' => 0,
			'headers'     => $headers,
		);
		if ( null !== $body ) {
			$args['headers']['Content-Type'] = 'application/json';
			$args['body']                    = wp_json_encode( array() === $body ? new stdClass() : $body ); // {} not [].
		}
		if ( null !== $idempotency_key ) {
			$args['headers']['Idempotency-Key'] = $idempotency_key;
		}

		$response = wp_remote_request( $this->service_url . $path, $args );
		if ( is_wp_error( $response ) ) {
			throw $this->noted( new RPS_Api_Error( 'No answer from the service: ' . $response->get_error_message(), 0, 'unreachable' ) );
		}
		$status  = (int) wp_remote_retrieve_response_code( $response );
		$decoded = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		if ( $status >= 200 && $status < 300 && is_array( $decoded ) ) {
			return $decoded;
		}
		$decoded = is_array( $decoded ) ? $decoded : array();
		throw $this->noted(
			new RPS_Api_Error(
				is_string( $decoded['error'] ?? null ) ? $decoded['error'] : 'Unexpected answer from the service',
				$status > 0 ? $status : 502,
				is_string( $decoded['code'] ?? null ) ? $decoded['code'] : '',
				is_array( $decoded['fields'] ?? null ) ? $decoded['fields'] : array()
			)
		);
	}

	/**
	 * What a failure tells the plugin beyond this call: "not connected" from any call forgets the
	 * store connection (checkout then takes plain payments, and the admin sees a notice); no answer
	 * to a quick call keeps quick calls away for a minute.
	 */
	private function noted( RPS_Api_Error $error ): RPS_Api_Error {
		if ( self::NOT_CONNECTED === $error->error_code ) {
			RPS_Settings::connection_lost();
		}
		if ( $this->quick && ( 0 === $error->status || $error->status >= 500 ) ) {
			set_transient( self::UNREACHABLE_TRANSIENT, time(), self::UNREACHABLE_SECONDS );
		}
		return $error;
	}
}
