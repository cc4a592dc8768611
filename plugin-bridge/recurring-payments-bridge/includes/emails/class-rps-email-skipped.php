<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told which payment is skipped. */
final class RPS_Email_Subscription_Skipped extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_skipped';
		$this->title       = __( 'Subscription payment skipped', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when the next payment of their subscription is skipped.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	/** @return list<string> */
	protected function message_lines(): array {
		$skipped = self::date( $this->event['skipped_date'] ?? null );
		/* translators: 1: the subscription's name, 2: a date */
		$lines = array( sprintf( __( 'The payment of your subscription %1$s on %2$s is skipped.', 'recurring-payments-bridge' ), $this->name(), $skipped ) );
		return array_merge( $lines, $this->next_payment_line() );
	}

	public function get_default_subject(): string {
		return __( 'A payment of {subscription_name} is skipped', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Payment skipped', 'recurring-payments-bridge' );
	}
}
