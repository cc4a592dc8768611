<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their cancellation is done and when the subscription ends. */
final class RPS_Email_Subscription_Cancelled extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_cancelled';
		$this->title       = __( 'Subscription cancelled', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscription is cancelled, with the date it ends.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	/** @return list<string> */
	protected function message_lines(): array {
		$ends  = self::date( $this->event['cancel_at'] ?? ( $this->subscription['cancel_at'] ?? null ) );
		/* translators: %s: the subscription's name */
		$lines = array( sprintf( __( 'Your subscription %s is cancelled.', 'recurring-payments-bridge' ), $this->name() ) );
		if ( '' !== $ends ) {
			/* translators: %s: a date */
			$lines[] = sprintf( __( 'It ends on %s: no payment is taken on or after that day.', 'recurring-payments-bridge' ), $ends );
		}
		return $lines;
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} is cancelled', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription cancelled', 'recurring-payments-bridge' );
	}
}
