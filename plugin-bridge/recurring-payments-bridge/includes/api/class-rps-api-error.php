<?php
defined( 'ABSPATH' ) || exit;

/**
 * A request to the service that did not succeed: `status` 0 when no answer came (unknown outcome:
 * retry with the same idempotency key), else the HTTP status with the service's code and fields.
 */
final class RPS_Api_Error extends RuntimeException {

	/**
	 * @param array<string, list<string>> $fields the 422's fields, by name
	 */
	public function __construct(
		string $message,
		public readonly int $status,
		public readonly string $error_code = '',
		public readonly array $fields = array()
	) {
		parent::__construct( $message );
	}

	/** No answer, or the service (or its provider, or the store) was unavailable: trying again may work. */
	public function is_temporary(): bool {
		return 0 === $this->status || 429 === $this->status || $this->status >= 500;
	}

	/** The service's message with the first field message, for a log line (never personal data). */
	public function detail(): string {
		$first = '';
		foreach ( $this->fields as $name => $messages ) {
			$first = sprintf( ' (%s: %s)', $name, implode( ' ', $messages ) );
			break;
		}
		return sprintf( 'HTTP %d %s%s', $this->status, $this->getMessage(), $first );
	}
}
