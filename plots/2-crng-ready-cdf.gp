# CRNG-ready time as a CDF across boots, one panel per entropy condition,
# variants overlaid. Boots whose CRNG never became ready are not on the curve:
# the curve then stops below 1.
load 'plots/style.gp'
dat = datadir.'/cdf.dat'
set ylabel 'fraction of boots with the CRNG ready'
set xlabel 'time from kernel start (guest clock, log scale)'
set logscale x
set yrange [0:1.05]
cols = nconds > 2 ? 2 : nconds
rows = (nconds + cols - 1) / cols
set multiplot layout rows,cols title "CRNG ready time across boots, ".clock."\n".caption
do for [c=0:nconds-1] {
	set title value(sprintf('cond_%d', c))
	s = value(sprintf('cdf_%d', c))
	# a panel whose boots were all ready at one moment: its range, from
	# prepare.py (autoscale would be empty and gnuplot warn)
	r = value(sprintf('cdfx_%d', c))
	if (strlen(r) > 0) { eval 'set xrange '.r } else { set autoscale x }
	eval 'set xtics '.value(sprintf('cdft_%d', c))
	if (strlen(s) > 0) { eval 'plot '.s } else { set label 1 'no boot became ready' at graph 0.5,0.5 center; plot 2 notitle; unset label 1 }
}
unset multiplot
