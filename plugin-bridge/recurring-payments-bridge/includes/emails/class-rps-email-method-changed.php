<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their new payment method is used. */
final class RPS_Email_Payment_Method_Changed extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_payment_method_changed';
		$this->title       = __( 'Subscription payment method changed', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscriptions are charged with a new payment method.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	/** @return list<string> */
	protected function message_lines(): array {
		/* translators: %s: the subscription's name */
		$lines = array( sprintf( __( 'Your subscription %s is now paid with your new payment method.', 'recurring-payments-bridge' ), $this->name() ) );
		if ( $this->others ) {
			/* translators: %s: names of subscriptions, comma-separated */
			$lines[] = sprintf( __( 'So are: %s.', 'recurring-payments-bridge' ), implode( ', ', $this->others ) );
		}
		return $lines;
	}

	public function get_default_subject(): string {
		return __( 'Your payment method for {subscription_name} is changed', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Payment method changed', 'recurring-payments-bridge' );
	}
}
